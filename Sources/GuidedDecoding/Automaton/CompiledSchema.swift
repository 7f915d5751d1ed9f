/// A schema document compiled into the grammar its automata run: compiled once per schema, so
/// that every generation with it starts from the same compilation.
public final class CompiledSchema: Sendable {
  public let document: SchemaDocument
  public let options: ConstraintOptions
  let grammar: JSONGrammar

  /// Compiles `document`.
  /// - Parameter options: what generation may write where the schema leaves the shape open.
  /// - Throws: `SchemaError` when the document cannot be enforced.
  public init(_ document: SchemaDocument, options: ConstraintOptions = .generation) throws {
    self.document = document
    self.options = options
    grammar = try SchemaCompiler.compile(document, options: options)
  }

  /// A new automaton over the grammar, its tables empty.
  public func makeAutomaton() -> ConstraintAutomaton {
    ConstraintAutomaton(grammar: grammar)
  }
}
