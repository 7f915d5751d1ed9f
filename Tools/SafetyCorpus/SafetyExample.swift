import Guardrails

/// One labelled text of the safety data: where it comes from, what it is labelled, and which
/// part of the split it is in.
public struct SafetyExample: Sendable {
  public var text: String
  /// The evaluation group it is reported in (``SafetyGroup``).
  public var group: SafetyGroup
  /// Per scored category: true (unsafe in it), false (safe in it) or nil (not labelled; the
  /// category's head does not train on it).
  public var labels: [GuardrailCategory: Bool]
  public var split: SafetySplit
  /// Whether the example counts in the measurements (partly labelled texts only train).
  public var isMeasured = true
  /// Whether the example may train (texts outside our categories are reported only).
  public var isTrained = true
  /// The source it comes from (the unit the leave-one-source-out protocol holds out).
  public var source: SafetySource { group.source }

  /// Whether it trains the classifier when it is in the training split: labelled in some
  /// category, or a clearly harmful request (which trains the request head).
  public var trains: Bool {
    isTrained && (!labels.isEmpty || group.isClearlyHarmful)
  }

  public init(text: String, group: SafetyGroup, labels: [GuardrailCategory: Bool]) {
    self.text = text
    self.group = group
    self.labels = labels
    split = SafetySplit(of: text)
  }

  /// Safe in every category: a false positive if flagged.
  public var isBenign: Bool {
    GuardrailCategory.scored.allSatisfy { labels[$0] == false }
  }

  /// Unsafe in some category: a detection if flagged.
  public var isHarmful: Bool {
    labels.values.contains(true)
  }

  /// Labels for all five categories: `categories` unsafe, the rest safe.
  public static func labels(unsafe categories: Set<GuardrailCategory>) -> [GuardrailCategory: Bool] {
    Dictionary(uniqueKeysWithValues: GuardrailCategory.scored.map { ($0, categories.contains($0)) })
  }
}

/// The part of the data a text belongs to, fixed by a hash of the text so every run (the
/// training program, the benchmark, the tests) splits the data the same way.
///
/// 30 % is held out (hash mod 10 in 0…2): never trained on, never used to choose thresholds,
/// only measured. The rest trains, in five folds (hash mod 5 of the hash divided by 10) whose
/// out-of-fold scores choose the thresholds.
public enum SafetySplit: Sendable, Equatable {
  case heldOut
  case training(fold: Int)

  public init(of text: String) {
    let hash = Self.hash(text)
    let tenth = hash % 10
    self = tenth < 3 ? .heldOut : .training(fold: Int((hash / 10) % 5))
  }

  /// The training fold of `text` when every text of its source trains (the leave-one-source-out
  /// protocol: a source is either held out whole or trained on whole).
  public static func wholeSourceTraining(_ text: String) -> SafetySplit {
    .training(fold: Int((hash(text) / 10) % 5))
  }

  private static func hash(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    return hash
  }

  public var isHeldOut: Bool { self == .heldOut }

  /// The training fold the text's hash gives (also for held-out texts, which never train).
  public var fold: Int {
    switch self {
    case .heldOut: 0
    case .training(let fold): fold
    }
  }
}
