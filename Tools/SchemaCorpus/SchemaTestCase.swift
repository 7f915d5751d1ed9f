import Foundation
import GuidedDecoding
import JSON

/// One schema with labelled instances (the JSONSchemaBench / maskbench file format:
/// `{"description", "meta", "schema", "tests": [{"valid", "data"}]}`), and the model-free
/// check that the constraint accepts exactly the valid instances.
public struct SchemaTestCase: Sendable {
  public struct Instance: Sendable {
    public var isValid: Bool
    public var data: JSONValue
  }

  public var schema: JSONValue
  public var instances: [Instance]

  /// A case from a parsed `{"schema", "tests": [{"valid", "data"}]}` object (corpus files
  /// and JSON-Schema-Test-Suite groups share this shape).
  /// - Throws: `SchemaError.invalidSchema` when the layout is wrong.
  public init(_ file: JSONValue) throws {
    guard let schema = file["schema"], case .array(let tests)? = file["tests"] else {
      throw SchemaError.invalidSchema("not a schema test file", path: "")
    }
    self.schema = schema
    self.instances = tests.compactMap { t in
      guard case .bool(let valid)? = t["valid"], let data = t["data"] else { return nil }
      return Instance(isValid: valid, data: data)
    }
  }

  /// Reads a corpus file.
  /// - Throws: `JSONParseError`, or `SchemaError.invalidSchema` when the layout is wrong.
  public init(fileContents: Data) throws {
    try self.init(JSONValue(parsing: fileContents))
  }

  /// How one instance fared.
  public struct Outcome: Sendable {
    public var isValid: Bool
    /// Whether the constraint accepted the instance byte by byte to a complete value.
    public var acceptedByBytes: Bool
    /// Whether it accepted the same text token by token (greedy tokenization).
    public var acceptedByTokens: Bool
    /// Whether the token walk, with loop stopping on (`loopRun` of `evaluate`), found a loop:
    /// a valid instance that generation would have been made to cut short.
    public var endsLoop = false
    /// Correct when acceptance matches the label on both walks.
    public var isCorrect: Bool { acceptedByBytes == isValid && acceptedByTokens == isValid }
  }

  /// Walks every instance through `automaton`, byte by byte and token by token.
  ///
  /// An instance counts as accepted when any of its canonical spellings
  /// (`CanonicalSerializer`) is accepted: the generator could have produced that text. The
  /// walks check the schema's language, so loop stopping is off in them.
  /// - Parameter loopRun: when set, each accepted token walk is repeated with loop stopping
  ///   after this many repeated tokens, to record `Outcome.endsLoop`.
  public func evaluate(
    document: SchemaDocument, automaton: ConstraintAutomaton, vocabulary: Vocabulary, loopRun: Int? = nil
  ) -> [Outcome] {
    let serializer = CanonicalSerializer(document: document)
    let matcher = TokenMatcher(automaton: automaton, vocabulary: vocabulary, loopRun: nil)
    let looping = loopRun.map { TokenMatcher(automaton: automaton, vocabulary: vocabulary, loopRun: $0) }
    /// Whether loop stopping would have ended something in this accepted walk.
    func endsLoop(_ ids: [Int]) -> Bool {
      guard let looping else { return false }
      looping.reset()
      for id in ids {
        guard (try? looping.accept(token: id)) != nil else { return true }
        if looping.isEndingLoop { return true }
      }
      return false
    }
    return instances.map { instance in
      let spellings = serializer.serializations(of: instance.data)
      let byBytes = spellings.contains { text in
        automaton.next(automaton.initialState, bytes: text).map(automaton.isComplete) ?? false
      }
      var accepted: [Int]?
      for text in spellings where accepted == nil {
        guard let ids = vocabulary.greedyTokenize(text) else { continue }
        matcher.reset()
        if ids.allSatisfy({ (try? matcher.accept(token: $0)) != nil }), matcher.isComplete { accepted = ids }
      }
      var outcome = Outcome(isValid: instance.isValid, acceptedByBytes: byBytes, acceptedByTokens: accepted != nil)
      outcome.endsLoop = accepted.map(endsLoop) ?? false
      return outcome
    }
  }
}
