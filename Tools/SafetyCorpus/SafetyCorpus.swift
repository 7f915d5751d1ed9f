import Foundation
import Guardrails

/// Reads the public safety data (`safety-dev`: OpenAI moderation, Do-Not-Answer, BIPIA,
/// jailbreaks in the wild) and the project's own prompt lists into labelled examples, the same
/// way for the training program and the benchmark.
///
/// The data is read where it lies and never copied into the package.
public enum SafetyCorpus {
  /// An error reading the data, naming the file.
  public struct LoadError: Error, CustomStringConvertible {
    public let description: String

    public init(description: String) {
      self.description = description
    }
  }

  /// Every example: the public data under `dataDirectory` (the `safety-dev` folder) and the
  /// project's lists under `projectDirectory` (`bench/guardrails`).
  public static func load(dataDirectory: URL, projectDirectory: URL) throws -> [SafetyExample] {
    var examples: [SafetyExample] = []
    examples += try moderation(dataDirectory.appendingPathComponent("openai-moderation/samples-1680.jsonl"))
    examples += try doNotAnswer(dataDirectory.appendingPathComponent("donotanswer"))
    examples += try bipia(dataDirectory.appendingPathComponent("bipia"))
    examples += try jailbreaks(
      dataDirectory.appendingPathComponent("jailbreak-inthewild/inthewild_jailbreak_llms.json"))
    examples += try projectList(
      projectDirectory.appendingPathComponent("borderline-benign.tsv"), group: .borderlineBenign)
    examples += try projectList(
      projectDirectory.appendingPathComponent("harmful-requests.tsv"), group: .authoredHarmful)
    examples += try projectList(
      projectDirectory.appendingPathComponent("training-benign-requests.tsv"), group: .trainingBenignRequests)
    examples += try projectList(
      projectDirectory.appendingPathComponent("training-harmful-requests.tsv"), group: .trainingHarmfulRequests)
    return examples
  }

  /// The `safety-dev` folder named by `FM_SAFETY_DATA`, when it holds the data (it is not part
  /// of the package; pass its place with `--data` or `--corpus`, or set the variable).
  public static func dataDirectory(environment: [String: String]) -> URL? {
    guard let path = environment["FM_SAFETY_DATA"] else { return nil }
    let url = URL(fileURLWithPath: path)
    let holdsData = FileManager.default.fileExists(atPath: url.appendingPathComponent("openai-moderation").path)
    return holdsData ? url : nil
  }

  // MARK: Sources

  /// OpenAI moderation keys per category (crime has none there: it is labelled safe).
  private static let moderationKeys: [GuardrailCategory: [String]] = [
    .selfHarm: ["SH"], .violenceAndWeapons: ["V", "V2"], .sexualContentAndMinors: ["S", "S3"],
    .hateAndHarassment: ["H", "H2", "HR"], .crimeAndDangerousInstructions: [],
  ]

  static func moderation(_ file: URL) throws -> [SafetyExample] {
    try lines(of: file).map { line in
      let object = try jsonObject(line, file: file)
      guard let text = object["prompt"] as? String else { throw LoadError(description: "\(file.path): no prompt") }
      var labels: [GuardrailCategory: Bool] = [:]
      for (category, keys) in moderationKeys {
        let values = keys.compactMap { (object[$0] as? NSNumber)?.intValue }
        if values.contains(1) {
          labels[category] = true
        } else if values.count == keys.count {
          labels[category] = false
        }
      }
      let group: SafetyGroup
      if labels.values.contains(true) {
        group = .moderationFlagged
      } else if labels.count == GuardrailCategory.scored.count {
        group = .moderationBenign
      } else {
        group = .moderationFlagged  // partly labelled and unflagged: trains its known heads, never measured
        return SafetyExample(text: text, group: group, labels: labels).unmeasured
      }
      return SafetyExample(text: text, group: group, labels: labels)
    }
  }

  /// Do-Not-Answer intent codes of the five categories; the milder ones are reported only.
  private static let clearIntents: [String: Set<GuardrailCategory>] = [
    "S006sh": [.selfHarm],
    "S006instructions": [.violenceAndWeapons, .crimeAndDangerousInstructions], "S006items": [.violenceAndWeapons],
    "S006threat": [.violenceAndWeapons, .hateAndHarassment],
    "S004describe": [.sexualContentAndMinors], "S004erotica": [.sexualContentAndMinors],
    "S004lewd": [.sexualContentAndMinors], "S003illegal": [.sexualContentAndMinors, .crimeAndDangerousInstructions],
    "S005hate": [.hateAndHarassment],
    "S003goods": [.crimeAndDangerousInstructions], "S003instructions": [.crimeAndDangerousInstructions],
    "S008code": [.crimeAndDangerousInstructions], "S008mal": [.crimeAndDangerousInstructions],
    "S008phish": [.crimeAndDangerousInstructions],
  ]
  private static let mildIntents: Set<String> = ["S005bully", "S005profanity", "S007", "S006violence", "S008spam"]

  static func doNotAnswer(_ folder: URL) throws -> [SafetyExample] {
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".jsonl") }
      .sorted()
    var examples: [SafetyExample] = []
    for name in files {
      let file = folder.appendingPathComponent(name)
      for line in try lines(of: file) {
        let object = try jsonObject(line, file: file)
        guard let text = object["prompt"] as? String, let intents = object["intents"] as? [String] else {
          throw LoadError(description: "\(file.path): a line without prompt and intents")
        }
        let unsafe = intents.reduce(into: Set<GuardrailCategory>()) { $0.formUnion(clearIntents[$1] ?? []) }
        if !unsafe.isEmpty {
          examples.append(
            SafetyExample(text: text, group: .doNotAnswerHarmful, labels: SafetyExample.labels(unsafe: unsafe)))
        } else if intents.contains(where: mildIntents.contains) {
          examples.append(SafetyExample(text: text, group: .doNotAnswerMild, labels: [:]))
        } else {
          examples.append(
            SafetyExample(text: text, group: .doNotAnswerOutOfScope, labels: SafetyExample.labels(unsafe: [])))
        }
      }
    }
    return examples
  }

  /// BIPIA attack types that are not harmless tasks (left unlabelled).
  private static let bipiaHarmfulTypes: Set<String> = ["Scams & Fraud", "Misinformation & Propaganda"]

  static func bipia(_ folder: URL) throws -> [SafetyExample] {
    var examples: [SafetyExample] = []
    for name in ["text_attack_train.json", "text_attack_test.json"] {
      let file = folder.appendingPathComponent(name)
      guard let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: [String]] else {
        throw LoadError(description: "\(file.path): not an object of string lists")
      }
      for (type, texts) in object.sorted(by: { $0.key < $1.key }) where !bipiaHarmfulTypes.contains(type) {
        examples += texts.map { SafetyExample(text: $0, group: .bipiaBenign, labels: SafetyExample.labels(unsafe: [])) }
      }
    }
    let emails = folder.appendingPathComponent("email_test.jsonl")
    for line in try lines(of: emails) {
      guard let context = try jsonObject(line, file: emails)["context"] as? String else { continue }
      examples.append(SafetyExample(text: context, group: .bipiaBenign, labels: SafetyExample.labels(unsafe: [])))
    }
    return examples
  }

  static func jailbreaks(_ file: URL) throws -> [SafetyExample] {
    guard let prompts = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String] else {
      throw LoadError(description: "\(file.path): not a list of strings")
    }
    return prompts.map { SafetyExample(text: $0, group: .jailbreaks, labels: [:]) }
  }

  /// A project list: one `category<TAB>prompt` per line (`#` comments); benign lists (those of a
  /// group whose texts are safe in every category) name a topic in the first column instead.
  static func projectList(_ file: URL, group: SafetyGroup) throws -> [SafetyExample] {
    let benign = group == .borderlineBenign || group == .trainingBenignRequests
    return try lines(of: file).compactMap { line -> SafetyExample? in
      guard !line.hasPrefix("#") else { return nil }
      let columns = line.split(separator: "\t", maxSplits: 1).map(String.init)
      guard columns.count == 2 else { throw LoadError(description: "\(file.path): not two columns: \(line)") }
      if benign {
        return SafetyExample(text: columns[1], group: group, labels: SafetyExample.labels(unsafe: []))
      }
      guard let category = GuardrailCategory(rawValue: columns[0]), category != .testPhrase else {
        throw LoadError(description: "\(file.path): unknown category \(columns[0])")
      }
      return SafetyExample(text: columns[1], group: group, labels: SafetyExample.labels(unsafe: [category]))
    }
  }

  // MARK: Files

  private static func lines(of file: URL) throws -> [String] {
    do {
      return try String(contentsOf: file, encoding: .utf8).split(whereSeparator: \.isNewline).map(String.init)
        .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    } catch {
      throw LoadError(description: "cannot read \(file.path): \(error.localizedDescription)")
    }
  }

  private static func jsonObject(_ line: String, file: URL) throws -> [String: Any] {
    guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
      throw LoadError(description: "\(file.path): a line that is not a JSON object")
    }
    return object
  }
}

extension SafetyExample {
  /// This example for training only: a group that is never measured.
  var unmeasured: SafetyExample {
    var copy = self
    copy.isMeasured = false
    return copy
  }
}
