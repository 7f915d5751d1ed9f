import JSON

/// Decides, conservatively, whether `oneOf` branches can never match the same value, so that
/// `oneOf` may be enforced as `anyOf`.
///
/// Two branches are disjoint when their JSON types differ, when they are constants with
/// different values, or when both are objects that require a common property whose
/// schemas are disjoint (a discriminator). Anything else is treated as overlapping.
struct SchemaDisjointness {
  let definitions: [String: SchemaNode]
  let document: SchemaLowering

  func areDisjoint(_ branches: [SchemaNode]) -> Bool {
    for i in branches.indices {
      for j in branches.indices where j > i {
        if !disjoint(branches[i], branches[j], depth: 0) { return false }
      }
    }
    return true
  }

  private enum Kind: Hashable { case null, boolean, number, string, array, object }

  private func resolved(_ node: SchemaNode, depth: Int) -> SchemaNode? {
    guard case .ref(let name) = node else { return node }
    guard depth < 16 else { return nil }
    if let target = definitions[name] { return resolved(target, depth: depth + 1) }
    // Not lowered yet: lower a private copy of the reference target.
    guard let raw = SchemaLowering.resolve(pointer: name, in: document.document) else { return nil }
    // Why the depth cap: the target may itself hold a `oneOf` that refers back here.
    guard document.copyDepth < 3 else { return nil }
    var copy = SchemaLowering(document: document.document, options: document.options)
    copy.copyDepth = document.copyDepth + 1
    guard let node = try? copy.lower(raw, path: "") else { return nil }
    return resolved(node, depth: depth + 1)
  }

  private func kinds(_ node: SchemaNode, depth: Int) -> Set<Kind>? {
    guard let node = resolved(node, depth: depth) else { return nil }
    switch node {
    case .any: return nil
    case .never: return []
    case .null: return [.null]
    case .boolean: return [.boolean]
    case .integer, .number: return [.number]
    case .string: return [.string]
    case .array: return [.array]
    case .object: return [.object]
    case .const(let v):
      switch v {
      case .null: return [.null]
      case .bool: return [.boolean]
      case .number: return [.number]
      case .string: return [.string]
      case .array: return [.array]
      case .object: return [.object]
      }
    case .anyOf(let branches):
      var all: Set<Kind> = []
      for b in branches {
        guard let k = kinds(b, depth: depth + 1) else { return nil }
        all.formUnion(k)
      }
      return all
    case .ref: return nil
    }
  }

  private func constants(_ node: SchemaNode, depth: Int) -> [JSONValue]? {
    guard let node = resolved(node, depth: depth) else { return nil }
    switch node {
    case .const(let v): return [v]
    case .anyOf(let branches):
      var all: [JSONValue] = []
      for b in branches {
        guard let c = constants(b, depth: depth + 1) else { return nil }
        all += c
      }
      return all
    default: return nil
    }
  }

  private func disjoint(_ a: SchemaNode, _ b: SchemaNode, depth: Int) -> Bool {
    guard depth < 8 else { return false }
    if let ka = kinds(a, depth: depth), let kb = kinds(b, depth: depth), ka.isDisjoint(with: kb) { return true }
    if let ca = constants(a, depth: depth), let cb = constants(b, depth: depth) {
      return !ca.contains { x in cb.contains { $0.isJSONEqual(to: x) } }
    }
    guard case .object(let oa)? = resolved(a, depth: depth), case .object(let ob)? = resolved(b, depth: depth) else {
      return false
    }
    for pa in oa.properties where pa.isRequired {
      if let pb = ob.properties.first(where: { $0.name.hasSameScalars(as: pa.name) && $0.isRequired }),
        disjoint(pa.schema, pb.schema, depth: depth + 1)
      {
        return true
      }
    }
    return false
  }
}
