import JSON

/// Rewrites `unevaluatedProperties` into `additionalProperties` at the place where it means
/// the same, so the rest of the lowering never sees it.
///
/// `unevaluatedProperties: U` applies `U` to every member that no `properties`,
/// `patternProperties` or `additionalProperties` evaluated — those of its own schema object
/// and of every subschema applied in place that *matched* (`allOf`, `$ref`, the branches of
/// `anyOf`/`oneOf` that hold, `if` when it holds with `then`, otherwise `else`,
/// `dependentSchemas` whose trigger is present). `not` and failed branches evaluate nothing.
///
/// So the in-place subschemas are first brought into the object (merged, or distributed into
/// branches), each branch's properties become exactly what that branch evaluates, and `U`
/// turns into the branch's `additionalProperties` — unless the branch already has one, which
/// evaluates every remaining member and leaves `U` nothing to do. A subschema's own
/// `unevaluatedProperties` sees only that subschema, so it is rewritten before merging
/// (`SchemaMerging` calls ``eliminate(_:depth:)`` on every part it merges).
///
/// Branches become exact alternatives: `oneOf` branches that can overlap are made exclusive
/// with the others' complements (which evaluate nothing), `if` splits into "condition holds"
/// and "condition fails" with the condition's complement beside the `else` branch, and
/// `dependentSchemas` into "trigger present" and "trigger absent". Overlapping `anyOf`
/// branches are refused: there several branches can match at once and the members they
/// evaluate together are not any one branch's.
///
/// In drafts 3 to 7 `unevaluatedProperties` is not a keyword; it is enforced all the same
/// (an author who writes it expects it), except beside a `$ref` those drafts let replace its
/// siblings.
struct UnevaluatedClosing {
  let document: JSONValue
  let options: JSONSchemaParser.Options
  let path: String

  /// `schema` without a top-level `unevaluatedProperties`, with the same meaning; the schema
  /// itself when it has none.
  /// - Throws: `SchemaError` for a combination whose meaning cannot be kept.
  func eliminate(_ schema: JSONValue, depth: Int = 0) throws -> JSONValue {
    guard case .object(let members) = schema, let unevaluated = schema["unevaluatedProperties"] else { return schema }
    let rest = JSONValue.object(members.filter { $0.key != "unevaluatedProperties" })
    // Even `true` stays: it evaluates every member left, which an enclosing schema's own
    // `unevaluatedProperties` then leaves alone.
    guard unevaluated.isSchemaObjectOrBool else {
      throw SchemaError.invalidSchema("unevaluatedProperties must be a schema", path: path)
    }
    return try close(rest, over: unevaluated, depth: depth)
  }

  private var merging: SchemaMerging { SchemaMerging(document: document, path: path, options: options) }

  private func refused(_ what: String) -> SchemaError {
    SchemaError.unsupportedKeyword("unevaluatedProperties with \(what)", path: path)
  }

  /// `schema` and, on the members it does not evaluate, `unevaluated`.
  private func close(_ schema: JSONValue, over unevaluated: JSONValue, depth: Int) throws -> JSONValue {
    guard depth < 12 else { throw refused("a recursive or deeply nested schema") }
    guard case .object(let members) = schema else {
      if schema == .bool(false) { return schema }
      return SchemaNegation.object(("additionalProperties", unevaluated))
    }
    func again(_ s: JSONValue) throws -> JSONValue { try close(s, over: unevaluated, depth: depth + 1) }
    func without(_ keys: Set<String>) -> JSONValue { .object(members.filter { !keys.contains($0.key) }) }

    // In place and always applied: merged into one object first.
    if let ref = schema["$ref"] {
      if SchemaLowering.refReplacesSiblings(in: document) { return schema }
      return try again(merging.merge([without(["$ref"]), SchemaNegation.object(("$ref", ref))]))
    }
    if case .array(let parts)? = schema["allOf"] {
      return try again(merging.merge([without(["allOf"])] + parts))
    }

    // Alternatives: each branch evaluates its own members.
    if let branches = schema["anyOf"]?.arrayElements ?? schema["oneOf"]?.arrayElements {
      let key = schema["anyOf"] != nil ? "anyOf" : "oneOf"
      let siblings = without([key])
      let merged = try branches.map { try merging.merge([siblings, $0]) }
      if try areDisjoint(merged) {
        return SchemaNegation.object(("anyOf", .array(try merged.map(again))))
      }
      guard key == "oneOf" else { throw refused("overlapping anyOf branches") }
      let negation = SchemaNegation(document: document, path: path)
      let complements = try branches.map { try negation.negate($0) }
      return SchemaNegation.object(
        (
          "anyOf",
          .array(
            try merged.indices.map { i in
              let others = complements.indices.filter { $0 != i }.map { complements[$0] }
              return SchemaNegation.object(("allOf", .array([try again(merged[i])] + others)))
            })
        ))
    }
    if let condition = schema["if"] {
      let base = without(["if", "then", "else"])
      let holds = try again(merging.merge([base, condition, schema["then"] ?? .bool(true)]))
      let fails = try again(merging.merge([base, schema["else"] ?? .bool(true)]))
      let complement = SchemaNegation.object(("not", condition))
      return SchemaNegation.object(
        ("anyOf", .array([holds, SchemaNegation.object(("allOf", .array([fails, complement])))])))
    }
    for key in ["dependentSchemas", "dependencies"] {
      guard case .object(let triggers)? = schema[key],
        let index = triggers.firstIndex(where: { $0.value.isSchemaObjectOrBool })
      else { continue }
      // One trigger at a time: the others stay in `rest` for the next round.
      var remaining = triggers
      let trigger = remaining.remove(at: index)
      let others = remaining.isEmpty ? [] : [JSONValue.Member(key: key, value: .object(remaining))]
      let rest = JSONValue.object(members.filter { $0.key != key } + others)
      let present = try again(
        merging.merge([rest, SchemaNegation.object(("required", .array([.string(trigger.key)]))), trigger.value]))
      let absent = try again(
        merging.merge([
          rest, SchemaNegation.object(("properties", .object([.init(key: trigger.key, value: .bool(false))]))),
        ]))
      return SchemaNegation.object(("anyOf", .array([present, absent])))
    }

    // One object: what it does not evaluate is what `additionalProperties` would check.
    if schema["additionalProperties"] != nil { return schema }
    return .object(members + [.init(key: "additionalProperties", value: unevaluated)])
  }

  /// Whether no value can match two of `branches`, judged on their lowered nodes.
  private func areDisjoint(_ branches: [JSONValue]) throws -> Bool {
    var copy = SchemaLowering(document: document, options: options)
    copy.copyDepth = 1
    let nodes = try branches.map { try copy.lower($0, path: path) }
    return SchemaDisjointness(definitions: copy.definitions, document: copy).areDisjoint(nodes)
  }
}
