/// A schema compiled into a graph of value nodes, the form the byte matcher walks.
///
/// Nodes refer to each other by index, so `$ref` recursion is a cycle in the graph.
/// Every node is *productive* (some finite JSON text matches it): the compiler removes
/// branches, optional properties and array slots that could never be completed, so the
/// matcher never lets generation walk into a dead end.
struct JSONGrammar: Sendable {
  enum Node: Sendable {
    /// One of several nodes.
    case choice([Int32])
    /// Exactly these bytes (constants, `true`, `false`, `null`).
    case literal([UInt8])
    case string(StringSpec)
    case number(NumberSpec)
    case array(ArraySpec)
    case object(ObjectSpec)
  }

  struct StringSpec: Sendable {
    var automata: [CodePointAutomaton]
    var minLength: Int
    var maxLength: Int?
    /// Start of every input class of every automaton: one scalar per joint class, for
    /// searches that must try concrete characters.
    var representatives: [UInt32]
    /// Length values above this are all equivalent for the constraints.
    var lengthCap: Int { maxLength ?? minLength }
  }

  struct NumberSpec: Sendable {
    var isInteger: Bool
    var bounds: NumberBounds
    /// Whether bounds exist, so the digits typed so far must be tracked.
    var isBounded: Bool { bounds.minimum != nil || bounds.maximum != nil }
  }

  struct ArraySpec: Sendable {
    var prefixItems: [Int32]
    var items: Int32?
    var minItems: Int
    /// The largest length the schema allows and the item schemas can produce.
    var maxItems: Int?

    func item(at index: Int) -> Int32? {
      index < prefixItems.count ? prefixItems[index] : items
    }
    /// Counts above this behave alike.
    var countCap: Int { max(prefixItems.count, minItems, maxItems ?? 0) }
  }

  struct ObjectSpec: Sendable {
    struct Property: Sendable {
      var name: String
      /// `"name":` exactly as generated.
      var keyBytes: [UInt8]
      var node: Int32
      var isRequired: Bool
    }
    var properties: [Property]
    var additional: Int32?
    /// For each index, the first required property at or after it (or `properties.count`).
    var firstRequired: [Int]
    /// Declared names as a byte trie, so additional keys can be kept distinct from them.
    var names: NameTrie
    var minProperties: Int
    var maxProperties: Int?
    /// For each index, how many required properties are at or after it.
    var requiredFrom: [Int]

    /// Whether members are counted at all (only when a count is bounded).
    var countsMembers: Bool { minProperties > 0 || maxProperties != nil }

    /// The keys that may start the next member when `members` members exist and the
    /// properties before `index` are behind: declared property indexes, and whether an
    /// additional key may. Choices that could no longer meet the member counts are left out.
    func keyCandidates(index: Int, members: Int) -> (declared: [Int], additional: Bool) {
      let count = properties.count
      let last = firstRequired[index]
      var declared: [Int] = []
      for j in index..<min(last + 1, count) {
        let after = members + 1
        if let maxProperties, after + requiredFrom[j + 1] > maxProperties { continue }
        if additional == nil, after + (count - j - 1) < minProperties { continue }
        declared.append(j)
      }
      var extra = last == count && additional != nil
      if let maxProperties, members + 1 > maxProperties { extra = false }
      return (declared, extra)
    }
  }

  var nodes: [Node]
  var root: Int32
}

/// A trie over the UTF-8 bytes of property names.
struct NameTrie: Sendable {
  private var children: [[UInt8: Int32]] = [[:]]
  private var terminal: [Bool] = [false]

  init(_ names: [String]) {
    for name in names {
      var node = 0
      for b in name.utf8 {
        if let next = children[node][b] {
          node = Int(next)
        } else {
          children.append([:])
          terminal.append(false)
          children[node][b] = Int32(children.count - 1)
          node = children.count - 1
        }
      }
      terminal[node] = true
    }
  }

  static let root: Int32 = 0

  /// The node after `byte`, or -1 once the text is no longer a prefix of any name.
  func next(_ node: Int32, _ byte: UInt8) -> Int32 {
    guard node >= 0 else { return -1 }
    return children[Int(node)][byte] ?? -1
  }

  func isName(_ node: Int32) -> Bool { node >= 0 && terminal[Int(node)] }
}
