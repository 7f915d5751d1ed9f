import Guardrails

/// What a guard model's answer says: safe, or unsafe with the categories it named (mapped onto
/// ours; empty where it named none of ours).
struct GuardModelAnswer: Equatable, Sendable {
  var isUnsafe: Bool
  var categories: [GuardrailCategory]

  static let safe = GuardModelAnswer(isUnsafe: false, categories: [])
}

extension GuardModel.Format {
  /// The user messages the guard model reads about `text`, asked in turn until one is unsafe:
  /// the text itself for the models whose chat template wraps it in their policy, else the
  /// model's documented prompt (ShieldGemma: one per policy of `category`).
  func prompts(for text: String, category: GuardrailCategory) -> [String] {
    switch self {
    case .llamaGuard3, .qwen3Guard, .graniteGuardian: [text]
    case .shieldGemma: Self.shieldGemmaPolicies(for: category).map { Self.shieldGemmaPrompt(text, policy: $0) }
    }
  }

  /// The most tokens the answer takes: the verdict and its categories, never an essay.
  var answerTokenLimit: Int {
    switch self {
    case .llamaGuard3, .qwen3Guard: 24
    case .shieldGemma: 3
    case .graniteGuardian: 12
    }
  }

  /// The answer's verdict, or nil when the answer does not follow the format's convention.
  func reading(_ answer: String) -> GuardModelAnswer? {
    let lines = answer.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }
    switch self {
    case .llamaGuard3:
      switch lines.first?.lowercased() {
      case "safe": return .safe
      case "unsafe":
        let codes = lines.dropFirst().first?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } ?? []
        return GuardModelAnswer(isUnsafe: true, categories: Self.mapped(codes, Self.llamaGuardCategories))
      default: return nil
      }
    case .qwen3Guard:
      func value(_ key: String) -> String? {
        lines.first { $0.lowercased().hasPrefix(key + ":") }.map {
          String($0.dropFirst(key.count + 1)).trimmingCharacters(in: .whitespaces)
        }
      }
      switch value("safety")?.lowercased() {
      case "safe", "controversial": return .safe
      case "unsafe":
        let names = value("categories")?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } ?? []
        return GuardModelAnswer(isUnsafe: true, categories: Self.mapped(names, Self.qwen3GuardCategories))
      default: return nil
      }
    case .shieldGemma, .graniteGuardian:
      // Granite Guardian 3.3 puts its answer in a score tag.
      var text = answer.lowercased()
      if let score = text.range(of: "<score>") { text = String(text[score.upperBound...]) }
      let word = text.split(whereSeparator: { !$0.isLetter }).first
      switch word {
      case "yes": return GuardModelAnswer(isUnsafe: true, categories: [])
      case "no": return .safe
      default: return nil
      }
    }
  }

  private static func mapped(_ names: [String], _ table: [String: GuardrailCategory]) -> [GuardrailCategory] {
    var categories: [GuardrailCategory] = []
    for name in names {
      if let category = table[name.lowercased()], !categories.contains(category) { categories.append(category) }
    }
    return categories
  }

  /// Llama Guard 3's hazard codes that have a counterpart among ours (S5 defamation, S6
  /// specialised advice, S7 privacy, S8 intellectual property and S13 elections have none).
  static let llamaGuardCategories: [String: GuardrailCategory] = [
    "s1": .violenceAndWeapons, "s2": .crimeAndDangerousInstructions, "s3": .crimeAndDangerousInstructions,
    "s4": .sexualContentAndMinors, "s9": .violenceAndWeapons, "s10": .hateAndHarassment, "s11": .selfHarm,
    "s12": .sexualContentAndMinors, "s14": .crimeAndDangerousInstructions,
  ]

  /// Qwen3Guard's categories that have a counterpart among ours ("Unethical Acts" covers hate
  /// speech, harassment and insults; PII, politically sensitive topics, copyright and jailbreak
  /// have none).
  static let qwen3GuardCategories: [String: GuardrailCategory] = [
    "violent": .violenceAndWeapons, "non-violent illegal acts": .crimeAndDangerousInstructions,
    "sexual content or sexual acts": .sexualContentAndMinors, "suicide & self-harm": .selfHarm,
    "unethical acts": .hateAndHarassment,
  ]

  /// ShieldGemma's policies (as its model card words them) for one of our categories.
  static func shieldGemmaPolicies(for category: GuardrailCategory) -> [String] {
    let dangerous = """
      "No Dangerous Content": The prompt shall not contain or seek generation of content that harming oneself \
      and/or others (e.g., accessing or building firearms and explosive devices, promotion of terrorism, \
      instructions for suicide).
      """
    let harassment = """
      "No Harassment": The prompt shall not contain or seek generation of content that is malicious, \
      intimidating, bullying, or abusive content targeting another individual (e.g., physical threats, denial \
      of tragic events, disparaging victims of violence).
      """
    let hate = """
      "No Hate Speech": The prompt shall not contain or seek generation of content that targeting identity \
      and/or protected attributes (e.g., racial slurs, promotion of discrimination, calls to violence against \
      protected groups) or dehumanizing/belittling/vilifying on the bases of race, ethnicity, religion, \
      disability, age, nationality, veteran status, sexual orientation, gender, gender identity, caste, or any \
      other protected status.
      """
    let sexual = """
      "No Sexually Explicit Information": The prompt shall not contain or seek generation of content that \
      contains references to sexual acts or other lewd content (e.g., sexually graphic descriptions, content \
      aimed at causing arousal). Medical or scientific terms related to human anatomy or sex education are \
      permitted.
      """
    switch category {
    case .hateAndHarassment: return [hate, harassment]
    case .sexualContentAndMinors: return [sexual]
    case .selfHarm, .violenceAndWeapons, .crimeAndDangerousInstructions, .testPhrase: return [dangerous]
    }
  }

  /// ShieldGemma's prompt for a user's text and one policy, as its model card gives it. Its
  /// turn markers are plain text here: the text is a user message, and user text never
  /// becomes control tokens.
  static func shieldGemmaPrompt(_ text: String, policy: String) -> String {
    """
    You are a policy expert trying to help determine whether a user prompt is in violation of the defined safety policies.

    <start_of_turn>
    Human Question: \(text)
    <end_of_turn>

    Our safety principle is defined in the below:

    * \(policy)

    ===

    Does the human question violate the above principle? Your answer must start with 'Yes' or 'No'. And then walk through step by step to be sure we answer correctly.
    """
  }
}
