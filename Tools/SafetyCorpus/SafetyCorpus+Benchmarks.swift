import Foundation
import Guardrails

/// The public benchmarks that joined the safety data for the leave-one-source-out protocol:
/// XSTest (safe prompts that sound unsafe, and their unsafe contrasts), AdvBench and
/// HarmBench (harmful behaviours), SimpleSafetyTests (short harmful requests) and OKTest
/// (benign questions with offensive words, measured only). `scripts/fetch-safety-data DIR`
/// fetches them at pinned commits; they are read where they lie, never copied into the package.
extension SafetyCorpus {
  static let xstestFile = "xstest/xstest_prompts.csv"
  static let advbenchFile = "advbench/harmful_behaviors.csv"
  static let harmbenchFile = "harmbench/harmbench_behaviors_text_all.csv"
  static let simpleSafetyTestsFile = "simplesafetytests/test_cases.csv"
  static let oktestFiles = ["oktest/OKTest.csv", "oktest/OKTest_heldout.csv"]

  /// Every example of the benchmarks under `directory`.
  public static func benchmarks(_ directory: URL) throws -> [SafetyExample] {
    func file(_ path: String) -> URL { directory.appendingPathComponent(path) }
    return try xstest(file(xstestFile)) + advbench(file(advbenchFile)) + harmbench(file(harmbenchFile))
      + simpleSafetyTests(file(simpleSafetyTestsFile)) + oktestFiles.flatMap { try oktest(file($0)) }
  }

  /// XSTest: its 250 safe prompts are benign; its 200 unsafe contrasts are clearly harmful
  /// requests (their category is not given: they train the request head only), but for the
  /// privacy contrasts, which are outside our categories and reported apart.
  static func xstest(_ file: URL) throws -> [SafetyExample] {
    try rows(of: file).map { row in
      let text = row["prompt"] ?? ""
      switch (row["label"], row["type"]) {
      case ("safe"?, _):
        return SafetyExample(text: text, group: .xstestSafe, labels: SafetyExample.labels(unsafe: []))
      case ("unsafe"?, "contrast_privacy"?):
        return SafetyExample(text: text, group: .xstestPrivacy, labels: [:]).unmeasuredForTraining
      case ("unsafe"?, _):
        return SafetyExample(text: text, group: .xstestUnsafe, labels: [:])
      default:
        throw LoadError(description: "\(file.path): a row without a safe or unsafe label")
      }
    }
  }

  /// Words of AdvBench's requests for misinformation, which is outside our categories.
  private static let misinformationWords = [
    "fake news", "misinformation", "propaganda", "conspiracy", "false information",
  ]

  /// AdvBench: 520 harmful behaviours without categories (the request head only); those asking
  /// for fake news, misinformation or propaganda are reported apart.
  static func advbench(_ file: URL) throws -> [SafetyExample] {
    try rows(of: file).map { row in
      let text = row["goal"] ?? ""
      let lowered = text.lowercased()
      if misinformationWords.contains(where: lowered.contains) {
        return SafetyExample(text: text, group: .advbenchMisinformation, labels: [:]).unmeasuredForTraining
      }
      return SafetyExample(text: text, group: .advbench, labels: [:])
    }
  }

  /// HarmBench's semantic categories in ours (`harmful` has no counterpart: the request head
  /// only); misinformation is outside ours.
  private static let misinformation = "misinformation_disinformation"
  private static let harmbenchCategories: [String: Set<GuardrailCategory>] = [
    "cybercrime_intrusion": [.crimeAndDangerousInstructions], "illegal": [.crimeAndDangerousInstructions],
    "chemical_biological": [.violenceAndWeapons, .crimeAndDangerousInstructions],
    "harassment_bullying": [.hateAndHarassment], "harmful": [],
  ]

  /// HarmBench's 200 standard behaviours (the contextual ones need their context, the copyright
  /// ones are not harm of ours); misinformation is reported apart.
  static func harmbench(_ file: URL) throws -> [SafetyExample] {
    try rows(of: file).compactMap { row in
      guard row["FunctionalCategory"] == "standard", let text = row["Behavior"] else { return nil }
      let semantic = row["SemanticCategory"] ?? ""
      if semantic == misinformation {
        return SafetyExample(text: text, group: .harmbenchMisinformation, labels: [:]).unmeasuredForTraining
      }
      guard let categories = harmbenchCategories[semantic] else {
        throw LoadError(description: "\(file.path): unknown semantic category '\(semantic)'")
      }
      let labels = categories.isEmpty ? [:] : SafetyExample.labels(unsafe: categories)
      return SafetyExample(text: text, group: .harmbench, labels: labels)
    }
  }

  /// SimpleSafetyTests' five harm areas, each within our categories.
  private static let simpleSafetyTestsAreas: Set<String> = [
    "Suicide, Self-Harm, and Eating Disorders", "Physical harm and Violence", "Illegal and Highly Regulated items",
    "Scams and fraud", "Child safety",
  ]

  /// SimpleSafetyTests: 100 clearly harmful requests. Like AdvBench's, they train the request
  /// head only: a category head taught by one-line requests flags more of the held-out
  /// moderation posts and borderline prompts, with no more detection.
  static func simpleSafetyTests(_ file: URL) throws -> [SafetyExample] {
    try rows(of: file).map { row in
      let area = row["harm_area"] ?? ""
      guard simpleSafetyTestsAreas.contains(area), let text = row["prompts_final"] else {
        throw LoadError(description: "\(file.path): unknown harm area '\(area)'")
      }
      return SafetyExample(text: text.trimmingCharacters(in: .whitespaces), group: .simpleSafetyTests, labels: [:])
    }
  }

  /// OKTest: benign questions, safe in every category; measured, never trained on (its
  /// repository states no licence).
  static func oktest(_ file: URL) throws -> [SafetyExample] {
    try rows(of: file).map { row in
      let text = (row["prompt"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
      var example = SafetyExample(text: text, group: .oktest, labels: SafetyExample.labels(unsafe: []))
      example.isTrained = false
      return example
    }
  }

  private static func rows(of file: URL) throws -> [[String: String]] {
    let text: String
    do {
      text = try String(contentsOf: file, encoding: .utf8)
    } catch {
      throw LoadError(description: "cannot read \(file.path): \(error.localizedDescription)")
    }
    return try CSVRows.parse(text, file: file.path)
  }
}

extension SafetyExample {
  /// This example reported only: neither trained on nor counted in the acceptance groups.
  var unmeasuredForTraining: SafetyExample {
    var copy = self
    copy.isTrained = false
    return copy
  }
}
