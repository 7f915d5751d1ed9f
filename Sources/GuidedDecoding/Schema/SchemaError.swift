/// Why a schema cannot be compiled into a constraint.
public enum SchemaError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A keyword (or keyword form) the engine does not enforce.
  ///
  /// `path` is a JSON Pointer.
  case unsupportedKeyword(String, path: String)
  /// The schema is malformed (wrong value type for a keyword, bad JSON, …).
  case invalidSchema(String, path: String)
  /// A `$ref` that does not resolve to a local definition.
  case unresolvedReference(String, path: String)
  /// A `pattern` outside the supported regex subset, or malformed.
  case invalidPattern(String, reason: String)
  /// No JSON value satisfies the schema.
  case unsatisfiable(String)

  public var description: String {
    switch self {
    case .unsupportedKeyword(let k, let path): "unsupported keyword '\(k)' at \(path.isEmpty ? "/" : path)"
    case .invalidSchema(let m, let path): "invalid schema at \(path.isEmpty ? "/" : path): \(m)"
    case .unresolvedReference(let r, let path): "unresolved $ref '\(r)' at \(path.isEmpty ? "/" : path)"
    case .invalidPattern(let p, let reason): "unsupported pattern /\(p)/: \(reason)"
    case .unsatisfiable(let m): "schema is unsatisfiable: \(m)"
    }
  }

  /// The keyword named by an `unsupportedKeyword` error, for summaries.
  public var unsupportedKeyword: String? {
    if case .unsupportedKeyword(let k, _) = self { return k }
    if case .invalidPattern = self { return "pattern" }
    return nil
  }
}
