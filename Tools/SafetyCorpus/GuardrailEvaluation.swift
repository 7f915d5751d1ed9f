import Foundation
import Guardrails

/// Flag rates of the checks per group and category on the held-out texts: false positives on
/// the benign groups, detection on the harmful ones.
public struct GuardrailEvaluation: Sendable {
  /// One row: a group (and, for harmful groups, one labelled category), how many texts, how many
  /// were flagged.
  public struct Row: Sendable, Codable {
    public var group: String
    public var category: String?
    /// The texts, each counted with its weight (1 unless a sample stands for more).
    public var texts: Double
    public var flagged: Double
    public var rate: Double { texts == 0 ? 0 : flagged / texts }
  }

  public var rows: [Row]

  /// The rows of `examples` (held-out and measured only) given each one's flag.
  /// - Parameter weights: how many texts each example stands for (all 1 by default); a sample
  ///   of a stratum counts for the whole stratum.
  public init(examples: [SafetyExample], flagged: [Bool], weights: [Double]? = nil) {
    let weights = weights ?? Array(repeating: 1, count: examples.count)
    var counts: [String: Row] = [:]
    var order: [String: (SafetyGroup, String)] = [:]
    func count(_ group: SafetyGroup, _ category: GuardrailCategory?, _ flag: Bool, _ weight: Double) {
      let key = group.rawValue + "|" + (category?.rawValue ?? "")
      var row = counts[key] ?? Row(group: group.rawValue, category: category?.rawValue, texts: 0, flagged: 0)
      row.texts += weight
      if flag { row.flagged += weight }
      counts[key] = row
      order[key] = (group, category?.rawValue ?? "")
    }
    for index in examples.indices {
      let example = examples[index]
      count(example.group, nil, flagged[index], weights[index])
      guard example.isHarmful else { continue }
      for category in GuardrailCategory.scored where example.labels[category] == true {
        count(example.group, category, flagged[index], weights[index])
      }
    }
    let keys = counts.keys.sorted { left, right in
      guard let a = order[left], let b = order[right] else { return left < right }
      return a.0 == b.0 ? a.1 < b.1 : a.0 < b.0
    }
    rows = keys.compactMap { counts[$0] }
    func total(_ name: String, _ included: (SafetyGroup) -> Bool) -> Row {
      var row = Row(group: name, category: nil, texts: 0, flagged: 0)
      for index in examples.indices where included(examples[index].group) {
        row.texts += weights[index]
        if flagged[index] { row.flagged += weights[index] }
      }
      return row
    }
    rows.append(total("all benign groups", \.isBenign))
    rows.append(total("all clearly harmful requests", \.isClearlyHarmful))
  }

  /// The held-out, measured examples.
  public static func heldOut(_ examples: [SafetyExample]) -> [SafetyExample] {
    examples.filter { $0.split.isHeldOut && $0.isMeasured }
  }

  /// The rows as a table, one line each.
  public var lines: [String] {
    rows.map { row in
      let name = row.category.map { "\(row.group) · \($0)" } ?? row.group
      return String(format: "%6.1f %%  %6.1f / %6.1f  %@", row.rate * 100, row.flagged, row.texts, name)
    }
  }
}
