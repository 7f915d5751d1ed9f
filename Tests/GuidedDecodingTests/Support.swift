import Foundation
import JSON
import Testing

@testable import GuidedDecoding

/// Compiles JSON Schema text.
func automaton(
  _ schema: String, options: JSONSchemaParser.Options = .init(), constraint: ConstraintOptions = .generation
) throws -> ConstraintAutomaton {
  try ConstraintAutomaton(jsonSchema: schema, options: options, constraint: constraint)
}

extension ConstraintAutomaton {
  /// Whether `text` is a complete output the constraint allows.
  func accepts(_ text: String) -> Bool {
    next(initialState, bytes: Array(text.utf8)).map(isComplete) ?? false
  }

  /// Whether `text` is allowed as the beginning of an output.
  func allowsPrefix(_ text: String) -> Bool {
    next(initialState, bytes: Array(text.utf8)) != nil
  }
}

/// Expects the standard's meaning of `c`: the automaton in `.standard` language and the
/// validator both accept `c.text` exactly when `c.accepted` says so.
func expectStandardMeaning(_ c: OutputCase, sourceLocation: SourceLocation = #_sourceLocation) throws {
  #expect(
    try automaton(c.schema, constraint: .standard).accepts(c.text) == c.accepted, sourceLocation: sourceLocation)
  let document = try JSONSchemaParser().parse(c.schema)
  let value = try JSONValue(parsing: Array(c.text.utf8))
  #expect(
    try SchemaValidator(document: document).validate(value, against: document.root) == c.accepted,
    sourceLocation: sourceLocation)
}

/// Expects `schema` to be refused with `unsupportedKeyword(keyword, …)`.
func expectRefused(
  _ schema: String, keyword: String, parser: JSONSchemaParser = JSONSchemaParser(),
  sourceLocation: SourceLocation = #_sourceLocation
) {
  do {
    _ = try parser.parse(schema)
    Issue.record("accepted \(schema)", sourceLocation: sourceLocation)
  } catch let error as SchemaError {
    #expect(error.unsupportedKeyword == keyword, "\(error)", sourceLocation: sourceLocation)
  } catch {
    Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
  }
}

/// A small vocabulary with the shapes real ones have: all single bytes, multi-byte
/// words, tokens spanning JSON structure (`":"`, `","`, `"}`), UTF-8 characters and a
/// token that splits one, plus an end-of-sequence token.
func smallVocabulary() -> Vocabulary {
  var tokens: [[UInt8]] = (0..<256).map { [UInt8($0)] }
  let pieces = [
    "{\"", "\":", "\":\"", "\",\"", "\"}", "\"},{\"", "\"]", "[\"", "\",", "},{", "}]", "]}", "name", "\"name",
    "age", "\"age\":", "true", "false", "null", "12", "345", "-1", ".5", "e+", "hello", " world", "\\n", "\\\"",
    "\\u00", "é", "日本", "\u{1F600}", "ab", "abc", "red", "\"red\"", "green", ":[", "],", "\"\"", "0.", "00",
  ]
  for p in pieces { tokens.append(Array(p.utf8)) }
  tokens.append([0xE6])  // the first byte of a three-byte character, alone
  tokens.append([0x97, 0xA5])  // the rest of 日 (E6 97 A5)
  tokens.append(Array("<eos>".utf8))
  return Vocabulary(tokens: tokens, endOfSequenceTokens: [tokens.count - 1])
}

/// The maskbench-dev corpus the corpus check reads, and whether it reads all of it.
///
/// The corpus is not copied into the repository: its README keeps it out of the package
/// (evaluation data only), and many of its schemas come from third-party sources. It lives
/// with the development data beside the project (`../shared/data/maskbench-dev`, which the data's
/// README lets tests read, and which CI's checkout has beside it too).
struct MaskbenchCorpus {
  let directory: URL
  /// Every schema (`FM_MASKBENCH_CORPUS`), or an evenly spaced sample.
  let isWhole: Bool

  /// The folder `FM_MASKBENCH_CORPUS` names, whole; else the shared data's, sampled; nil when
  /// the variable is unset and the shared folder is absent.
  static let selected: MaskbenchCorpus? = {
    if let path = ProcessInfo.processInfo.environment["FM_MASKBENCH_CORPUS"] {
      return MaskbenchCorpus(directory: URL(fileURLWithPath: path), isWhole: true)
    }
    // Tests/GuidedDecodingTests/Support.swift → the project's folder → its parent.
    let shared = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/data/maskbench-dev")
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: shared.path, isDirectory: &isDirectory), isDirectory.boolValue
    else { return nil }
    return MaskbenchCorpus(directory: shared, isWhole: false)
  }()

  /// Of the sorted schema files, every `sampleStride`-th in the sample: every subset is in it
  /// in proportion, and the check fits the normal test run.
  static let sampleStride = 5

  /// The schema files to check, sorted.
  /// - Throws: when the folder cannot be read (set but wrong is a mistake to report).
  func schemaFiles() throws -> [String] {
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }
      .sorted()
    return isWhole ? names : stride(from: 0, to: names.count, by: Self.sampleStride).map { names[$0] }
  }
}
