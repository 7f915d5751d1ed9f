import Foundation
import GuidedDecoding
import JSON
import SchemaCorpus

/// The official JSON-Schema-Test-Suite, keyword file by keyword file: each group's schema
/// compiles or is refused, and each test of an accepted schema must be classified right.
///
/// One JSON line per keyword file, then a total.
struct TestSuiteRun {
  var directory: URL
  var draft: String
  var vocabulary: Vocabulary
  var verbose: Bool
  /// `optional/format`: the format files, checked with every format asserted (as the suite
  /// means them), not only where the draft asserts it.
  var formatFiles = false

  func run() {
    let folder = directory.appendingPathComponent("tests/\(draft)" + (formatFiles ? "/optional/format" : ""))
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
      print("maskbench: no test suite at \(folder.path)")
      return
    }
    var totals = (groups: 0, accepted: 0, tests: 0, correct: 0)
    for name in names.filter({ $0.hasSuffix(".json") }).sorted() {
      guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path),
        case .array(let groups)? = try? JSONValue(parsing: data)
      else { continue }
      var accepted = 0
      var tests = 0
      var correct = 0
      var refusals: [String: Int] = [:]
      for group in groups {
        guard var testCase = try? SchemaTestCase(group) else { continue }
        if draft == "draft7", case .object(var members) = testCase.schema, testCase.schema["$schema"] == nil {
          // The suite leaves the draft implicit; say it, since `$ref` siblings depend on it.
          members.append(.init(key: "$schema", value: .string("http://json-schema.org/draft-07/schema#")))
          testCase.schema = .object(members)
        }
        do {
          var document = try JSONSchemaParser().parse(testCase.schema)
          if formatFiles { document.formatsAreAnnotations = false }
          let automaton = try ConstraintAutomaton(document, options: .standard)
          accepted += 1
          let outcomes = testCase.evaluate(document: document, automaton: automaton, vocabulary: vocabulary)
          for (o, instance) in zip(outcomes, testCase.instances) {
            tests += 1
            if o.isCorrect {
              correct += 1
            } else if verbose {
              print(
                "SUITE MISMATCH \(name) valid=\(o.isValid) \(testCase.schema.compactText.prefix(200)) :: \(instance.data.compactText.prefix(120))"
              )
            }
          }
        } catch let error as SchemaError {
          refusals[error.unsupportedKeyword ?? "other", default: 0] += 1
        } catch {
          refusals["other", default: 0] += 1
        }
      }
      totals.groups += groups.count
      totals.accepted += accepted
      totals.tests += tests
      totals.correct += correct
      print(
        jsonLine([
          ("figure", "test-suite"), ("draft", draft + (formatFiles ? "/optional/format" : "")), ("file", name),
          ("groups", groups.count), ("accepted", accepted),
          ("tests", tests), ("correct", correct),
          ("refused", refusals.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }),
        ]))
    }
    print(
      jsonLine([
        ("figure", "test-suite-total"), ("draft", draft + (formatFiles ? "/optional/format" : "")),
        ("groups", totals.groups), ("accepted", totals.accepted),
        ("tests", totals.tests), ("correct", totals.correct),
      ]))
  }
}
