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
    public var texts: Int
    public var flagged: Int
    public var rate: Double { texts == 0 ? 0 : Double(flagged) / Double(texts) }
  }

  public var rows: [Row]

  /// The rows of `examples` (held-out and measured only) given each one's flag.
  public init(examples: [SafetyExample], flagged: [Bool]) {
    var counts: [String: (SafetyGroup, GuardrailCategory?, Int, Int)] = [:]
    func count(_ group: SafetyGroup, _ category: GuardrailCategory?, _ flag: Bool) {
      let key = group.rawValue + "|" + (category?.rawValue ?? "")
      var entry = counts[key] ?? (group, category, 0, 0)
      entry.2 += 1
      if flag { entry.3 += 1 }
      counts[key] = entry
    }
    for (example, flag) in zip(examples, flagged) {
      count(example.group, nil, flag)
      guard example.isHarmful else { continue }
      for category in GuardrailCategory.scored where example.labels[category] == true {
        count(example.group, category, flag)
      }
    }
    rows = counts.values.sorted { ($0.0, $0.1?.rawValue ?? "") < ($1.0, $1.1?.rawValue ?? "") }.map {
      Row(group: $0.0.rawValue, category: $0.1?.rawValue, texts: $0.2, flagged: $0.3)
    }
    let benign = zip(examples, flagged).filter { $0.0.group.isBenign }
    let harmful = zip(examples, flagged).filter { $0.0.group.isClearlyHarmful }
    rows.append(Row(group: "all benign groups", category: nil, texts: benign.count, flagged: benign.filter(\.1).count))
    rows.append(
      Row(
        group: "all clearly harmful requests", category: nil, texts: harmful.count, flagged: harmful.filter(\.1).count))
  }

  /// The held-out, measured examples.
  public static func heldOut(_ examples: [SafetyExample]) -> [SafetyExample] {
    examples.filter { $0.split.isHeldOut && $0.isMeasured }
  }

  /// The rows as a table, one line each.
  public var lines: [String] {
    rows.map { row in
      let name = row.category.map { "\(row.group) · \($0)" } ?? row.group
      return String(format: "%6.1f %%  %4d / %4d  %@", row.rate * 100, row.flagged, row.texts, name)
    }
  }
}
