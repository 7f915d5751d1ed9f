/// Removes everything from a grammar that can never be completed, so generation can always
/// finish from any state the matcher allows.
enum GrammarPruning {
  /// - Throws: `SchemaError.unsatisfiable` when the root itself cannot be completed.
  static func prune(_ grammar: inout JSONGrammar) throws {
    let count = grammar.nodes.count
    var productive = [Bool](repeating: false, count: count)
    var changed = true
    // Least fixpoint: a node is productive once its parts are.
    while changed {
      changed = false
      for i in 0..<count where !productive[i] {
        if isProductive(grammar.nodes[i], productive) {
          productive[i] = true
          changed = true
        }
      }
    }
    guard productive[Int(grammar.root)] else {
      throw SchemaError.unsatisfiable("no JSON value matches the schema")
    }
    for i in 0..<count {
      switch grammar.nodes[i] {
      case .choice(let options):
        grammar.nodes[i] = .choice(options.filter { productive[Int($0)] })
      case .array(let spec):
        var items = spec.items
        if let node = items, !productive[Int(node)] { items = nil }
        var limit = items == nil ? spec.prefixItems.count : Int.max
        if let bad = spec.prefixItems.firstIndex(where: { !productive[Int($0)] }) { limit = bad }
        let maxItems = limit == Int.max ? spec.maxItems : min(spec.maxItems ?? limit, limit)
        grammar.nodes[i] = .array(
          .init(
            prefixItems: spec.prefixItems, items: items, minItems: spec.minItems, maxItems: maxItems,
            contains: spec.contains?.keeping(productive)))
      case .object(let spec):
        let kept = spec.properties.filter { productive[Int($0.node)] }
        let additional = spec.additional.filter { productive[Int($0.key)] && productive[Int($0.value)] }
        // Names of dropped optional properties still may not be used as additional keys.
        grammar.nodes[i] = .object(
          SchemaCompiler.objectSpec(
            kept, additional: additional, minProperties: spec.minProperties, maxProperties: spec.maxProperties,
            names: spec.names))
      default:
        break
      }
    }
  }

  private static func isProductive(_ node: JSONGrammar.Node, _ productive: [Bool]) -> Bool {
    switch node {
    case .literal: return true
    case .choice(let options): return options.contains { productive[Int($0)] }
    case .number(let spec): return spec.isSatisfiable
    case .string(let spec): return spec.canComplete(states: spec.automata.map(\.start), length: 0)
    case .array(let spec):
      if let max = spec.maxItems, max < spec.minItems { return false }
      for i in 0..<spec.minItems {
        guard let item = spec.item(at: i), productive[Int(item)] else { return false }
      }
      guard let contains = spec.contains else { return true }
      if let maximum = contains.maximum, maximum < contains.minimum { return false }
      // Enough matching elements can be written among those the array may hold.
      let kept = JSONGrammar.ArraySpec(
        prefixItems: spec.prefixItems, items: spec.items, minItems: spec.minItems, maxItems: spec.maxItems,
        contains: contains.keeping(productive))
      return kept.canMatchEnough(from: 0, matched: 0)
    case .object(let spec):
      guard spec.properties.allSatisfy({ !$0.isRequired || productive[Int($0.node)] }) else { return false }
      let required = spec.requiredFrom[0]
      if let max = spec.maxProperties, required > max || max < spec.minProperties { return false }
      let available = spec.properties.filter { productive[Int($0.node)] }.count
      let extra = spec.additional.contains { productive[Int($0.key)] && productive[Int($0.value)] }
      return extra || available >= spec.minProperties
    }
  }
}
