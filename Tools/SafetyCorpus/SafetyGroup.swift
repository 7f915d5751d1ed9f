import Guardrails

/// The groups the measurements are reported in: benign sets (false positives), harmful sets
/// (detection), and sets reported only.
public enum SafetyGroup: String, Sendable, DeclarationOrdered {
  /// Borderline-but-safe prompts written for this project (`bench/guardrails/borderline-benign.tsv`):
  /// history, medicine, safety advice, fiction, idioms, cooking, security work.
  case borderlineBenign = "benign: borderline prompts (project-written)"
  /// OpenAI moderation texts with all eight labels present and none set.
  case moderationBenign = "benign: OpenAI moderation, unflagged"
  /// Do-Not-Answer prompts outside the five categories (privacy, medical, legal and financial
  /// advice, misinformation, questions about the assistant).
  case doNotAnswerOutOfScope = "benign: Do-Not-Answer outside the categories"
  /// BIPIA's injected task instructions (automation, translation, marketing…) and its emails.
  case bipiaBenign = "benign: BIPIA tasks and emails"
  /// Do-Not-Answer prompts whose intent is clearly harmful in one of the five categories.
  case doNotAnswerHarmful = "harmful: Do-Not-Answer, clearly harmful requests"
  /// Clearly harmful requests written for this project (`bench/guardrails/harmful-requests.tsv`).
  case authoredHarmful = "harmful: clearly harmful requests (project-written)"
  /// OpenAI moderation texts with a flag set: social-media text, much of it mild.
  case moderationFlagged = "harmful: OpenAI moderation, flagged"
  /// Do-Not-Answer's milder intents (insults, stereotypes, spam, describing violence): not
  /// trained on, reported only.
  case doNotAnswerMild = "reported: Do-Not-Answer, mild intents"
  /// Jailbreak prompts in the wild: not a category of ours, reported only.
  case jailbreaks = "reported: jailbreak prompts in the wild"
  /// Everyday and protective requests written to train the classifier
  /// (`bench/guardrails/training-benign-requests.tsv`): reported apart, so the texts written
  /// with the classifier in view do not make the acceptance figures look better.
  case trainingBenignRequests = "reported: everyday requests (project-written, for training)"
  /// Clearly harmful requests written to train the classifier
  /// (`bench/guardrails/training-harmful-requests.tsv`): reported apart, like the benign ones.
  case trainingHarmfulRequests = "reported: harmful requests (project-written, for training)"
  /// XSTest's safe prompts: homonyms, figurative language, safe targets and contexts,
  /// definitions, history, public figures' privacy — built to sound unsafe.
  case xstestSafe = "benign: XSTest, safe prompts that sound unsafe"
  /// XSTest's unsafe contrast prompts in our categories.
  case xstestUnsafe = "harmful: XSTest, unsafe contrast prompts"
  /// XSTest's unsafe privacy contrasts (a private person's address…): outside our categories.
  case xstestPrivacy = "reported: XSTest, privacy contrasts (outside the categories)"
  /// AdvBench's harmful behaviours, but for its fake-news and propaganda requests.
  case advbench = "harmful: AdvBench harmful behaviours"
  /// AdvBench's fake-news, misinformation and propaganda requests: outside our categories.
  case advbenchMisinformation = "reported: AdvBench, misinformation (outside the categories)"
  /// HarmBench's standard behaviours in our categories (cybercrime, illegal, chemical and
  /// biological, harassment, harmful).
  case harmbench = "harmful: HarmBench standard behaviours"
  /// HarmBench's misinformation behaviours: outside our categories.
  case harmbenchMisinformation = "reported: HarmBench, misinformation (outside the categories)"
  /// SimpleSafetyTests' 100 requests: self-harm, physical harm, illegal items, scams and child
  /// abuse, each asked as a question or an instruction in a sentence or two.
  case simpleSafetyTests = "harmful: SimpleSafetyTests requests"
  /// OKTest's 350 benign questions built around offensive or harmful-sounding words ("Is the
  /// growth of this plant retarded…?"). Its repository states no licence, so it is measured
  /// only: never trained on, whichever source is held out.
  case oktest = "benign: OKTest, questions with offensive words (never trained on)"

  /// Whether a flag in this group is a false positive.
  public var isBenign: Bool {
    switch self {
    case .borderlineBenign, .moderationBenign, .doNotAnswerOutOfScope, .bipiaBenign, .xstestSafe, .oktest: true
    default: false
    }
  }

  /// Whether its texts are benign prompts built to sound unsafe (the acceptance allows them
  /// more false positives).
  public var soundsUnsafe: Bool {
    self == .borderlineBenign || self == .xstestSafe || self == .oktest
  }

  /// Whether a flag in this group is a detection that the acceptance figure counts.
  public var isClearlyHarmful: Bool {
    switch self {
    case .doNotAnswerHarmful, .authoredHarmful, .xstestUnsafe, .advbench, .harmbench, .simpleSafetyTests: true
    default: false
    }
  }

  /// The source its texts come from.
  public var source: SafetySource {
    switch self {
    case .moderationBenign, .moderationFlagged: .moderation
    case .doNotAnswerOutOfScope, .doNotAnswerHarmful, .doNotAnswerMild: .doNotAnswer
    case .bipiaBenign: .bipia
    case .jailbreaks: .jailbreaks
    case .borderlineBenign, .authoredHarmful, .trainingBenignRequests, .trainingHarmfulRequests: .project
    case .xstestSafe, .xstestUnsafe, .xstestPrivacy: .xstest
    case .advbench, .advbenchMisinformation: .advbench
    case .harmbench, .harmbenchMisinformation: .harmbench
    case .simpleSafetyTests: .simpleSafetyTests
    case .oktest: .oktest
    }
  }
}
