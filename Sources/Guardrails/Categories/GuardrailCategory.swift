/// What a guardrail blocks: the kinds of unsafe content the checks look for.
///
/// Each category covers requests for, instructions for, and content that promotes the harm;
/// text *about* the topic — history, news, medicine, safety advice, fiction, everyday idioms
/// ("kill a process", "a killer feature") — is not in it.
public enum GuardrailCategory: String, CaseIterable, Sendable, Codable {
  /// Encouraging or instructing suicide, self-injury or eating disorders.
  ///
  /// Asking for help, and talking about one's feelings, are not in it.
  case selfHarm
  /// Threats, plans or instructions to hurt or kill people or animals; making weapons,
  /// explosives and poisons; glorified graphic violence.
  case violenceAndWeapons
  /// Sexually explicit content, and any sexual content involving minors.
  case sexualContentAndMinors
  /// Attacks on people for who they are (race, religion, gender, sexuality, disability,
  /// origin), slurs, dehumanising language, and bullying or harassing a person.
  case hateAndHarassment
  /// Instructions for crimes and dangerous acts: drugs, hacking and malware, fraud and scams,
  /// theft, trafficking.
  case crimeAndDangerousInstructions
  /// Apple's deterministic test phrase, "Granular mango serpent": always a violation in the
  /// default mode, so apps and tests can trigger one on purpose.
  case testPhrase

  /// The categories the classifier scores (every category but the test phrase).
  public static let scored: [GuardrailCategory] = [
    .selfHarm, .violenceAndWeapons, .sexualContentAndMinors, .hateAndHarassment, .crimeAndDangerousInstructions,
  ]

  /// The category in words, as error messages name it.
  public var displayName: String {
    switch self {
    case .selfHarm: "self-harm"
    case .violenceAndWeapons: "violence and weapons"
    case .sexualContentAndMinors: "sexual content and minors"
    case .hateAndHarassment: "hate and harassment"
    case .crimeAndDangerousInstructions: "crime and dangerous instructions"
    case .testPhrase: "test phrase"
    }
  }

  /// What the category covers, in the words the judge model is asked about.
  public var judgeDescription: String {
    switch self {
    case .selfHarm: "encouragement of, or instructions for, suicide, self-injury or an eating disorder"
    case .violenceAndWeapons:
      "threats or plans to hurt or kill someone, instructions for weapons, explosives or poisons, or glorified graphic violence"
    case .sexualContentAndMinors: "sexually explicit content, or any sexual content involving minors"
    case .hateAndHarassment:
      "hate speech, slurs or dehumanising language against a group, or bullying and harassment of a person"
    case .crimeAndDangerousInstructions:
      "instructions for committing crimes or dangerous acts, such as making drugs, hacking, malware, fraud or theft"
    case .testPhrase: "the guardrail test phrase"
    }
  }
}
