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

/// The maskbench-dev corpus folder that `FM_MASKBENCH_CORPUS` names; nil when it is unset.
///
/// The corpus is not copied into the repository: its README keeps it out of the package
/// (evaluation data only), and many of its schemas come from third-party sources.
let maskbenchDirectory = ProcessInfo.processInfo.environment["FM_MASKBENCH_CORPUS"].map {
  URL(fileURLWithPath: $0)
}
