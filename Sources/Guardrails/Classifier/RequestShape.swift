/// Whether a text is shaped like a request to an assistant — an instruction, a question, a
/// "how do I" — rather than a post, a story or an email that only talks about something.
///
/// Why: the classifier's request head learnt harmful *requests* against benign texts, and on
/// a held-out source of social-media posts (OpenAI's moderation set) the benign posts it
/// flagged were statements — confessions, opinions, stories — not requests (the
/// leave-one-source-out protocol, `docs/GUARDRAILS.md`). The head therefore counts only for texts of a request's shape
/// (``gate(_:text:)``); the category heads, which learnt harmful content of any shape, still
/// read every text.
public enum RequestShape {
  /// Whether `text` has a request's shape: a sentence anywhere that opens with an instruction
  /// verb or "please" (a long role-play that ends "Now write…" is a request); the framing of a
  /// request ("how do I", "can you", "I want", "what is the best way") in a text of at most
  /// ``framedWordLimit`` words; or a question mark in one of at most ``questionWordLimit``.
  public static func isRequest(_ text: String) -> Bool {
    var wordCount = 0
    var framed = false
    for sentence in text.split(whereSeparator: { ".!?\n:;".contains($0) }) {
      let words = TextNormalizer.words(String(sentence))
      guard let first = words.first else { continue }
      if instructionVerbs.contains(first) || (first == "please" && words.count > 1) { return true }
      for (previous, word) in zip(words, words.dropFirst())
      where HarmConcepts.isRequestFraming(word, after: previous) || framings.contains(previous + " " + word) {
        framed = true
      }
      wordCount += words.count
    }
    return (framed && wordCount <= framedWordLimit) || (text.contains("?") && wordCount <= questionWordLimit)
  }

  /// Sets the request head's probability in `probabilities` (the classifier's, in
  /// ``ClassifierWeights`` head order) to 0 when `text` is not shaped like a request: the one
  /// rule the checks and the training program's threshold choice share.
  public static func gate(_ probabilities: inout [Float], text: String) {
    guard probabilities.indices.contains(ClassifierWeights.requestHead), !isRequest(text) else { return }
    probabilities[ClassifierWeights.requestHead] = 0
  }

  /// The most words of a text whose request framing makes it a request (a long post may say
  /// "I want" in passing).
  public static let framedWordLimit = 60
  /// The most words of a text whose question mark makes it a request.
  public static let questionWordLimit = 40

  /// Question and request framings besides those ``HarmConcepts/isRequestFraming(_:after:)`` knows.
  private static let framings: Set<String> = [
    "can you", "could you", "would you", "will you", "where can", "where do", "where to", "what is", "what are",
    "whats the", "is it", "why are", "why do", "why should", "why is", "way to", "how does", "how much", "how many",
  ]

  /// Verbs that open an instruction to an assistant.
  private static let instructionVerbs: Set<String> = [
    "write", "give", "tell", "explain", "describe", "provide", "create", "generate", "make", "show", "teach", "list",
    "help", "develop", "design", "outline", "suggest", "compose", "draft", "produce", "instruct", "offer", "detail",
    "share", "find", "recommend", "convince", "persuade", "build", "code", "program", "plan", "prepare", "craft",
    "post", "publish", "send", "draw", "name", "summarize", "summarise", "translate", "rewrite", "answer",
    "identify", "compare", "calculate", "convert", "define", "demonstrate", "guide", "walk", "let", "lets",
    "imagine", "pretend", "act", "assume", "insult", "threaten", "harass", "brainstorm", "invent", "devise",
    "compile", "collect", "gather", "locate", "search", "obtain", "acquire", "get", "buy", "sell", "hack", "steal",
    "kill", "release", "train", "exploit", "manipulate", "conduct", "use", "interfere", "talk", "discuss",
    "spread", "cause", "commit", "encourage", "promote", "incite", "spy", "track", "bypass", "evade", "avoid",
    "disable", "infiltrate", "sabotage", "poison", "dispose", "hide", "forge", "falsify", "fabricate", "smuggle",
    "launder", "distribute", "manufacture", "synthesize", "synthesise", "purchase", "set", "start", "run",
    "install", "deploy", "break", "crack", "access", "attack", "harm", "hurt", "bully", "stalk", "blackmail",
    "extort", "bribe", "scam", "trick", "lure", "groom", "recruit", "roleplay", "continue", "finish", "complete",
    "ignore", "forget", "respond", "reply", "say", "repeat", "print", "output", "play", "become",
  ]
}
