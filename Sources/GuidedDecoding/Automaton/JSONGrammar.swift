import JSON

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

  // Why classes: specs are read on every cold transition; sharing one instance costs one
  // retain where copying a struct would retain each of its arrays.
  final class StringSpec: Sendable {
    let automata: [CodePointAutomaton]
    let minLength: Int
    let maxLength: Int?
    /// Start of every input class of every automaton: one scalar per joint class, for
    /// searches that must try concrete characters.
    let representatives: [UInt32]

    init(automata: [CodePointAutomaton], minLength: Int, maxLength: Int?, representatives: [UInt32]) {
      self.automata = automata
      self.minLength = minLength
      self.maxLength = maxLength
      self.representatives = representatives
    }
    /// Length values above this are all equivalent for the constraints.
    var lengthCap: Int { maxLength ?? minLength }
  }

  final class NumberSpec: Sendable {
    let isInteger: Bool
    let bounds: NumberBounds
    /// `bounds.multipleOf` in the form the digit-by-digit check uses.
    let divisor: ExactDecimal.Divisor?

    init(isInteger: Bool, bounds: NumberBounds) {
      self.isInteger = isInteger
      self.bounds = bounds
      self.divisor = bounds.multipleOf.flatMap { ExactDecimal.Divisor($0) }.map { isInteger ? $0.forIntegers : $0 }
    }
    /// Whether bounds exist.
    var isBounded: Bool { bounds.minimum != nil || bounds.maximum != nil }
    /// Whether the digits typed so far must be tracked (bounds or a divisor); such numbers
    /// are written without an exponent, which keeps the checks exact.
    var tracksDigits: Bool { isBounded || divisor != nil }
  }

  final class ArraySpec: Sendable {
    let prefixItems: [Int32]
    let items: Int32?
    let minItems: Int
    /// The largest length the schema allows and the item schemas can produce.
    let maxItems: Int?

    /// How elements are counted for `contains` (see `ArrayConstraints.Contains`).
    let contains: ContainsSpec?

    init(prefixItems: [Int32], items: Int32?, minItems: Int, maxItems: Int?, contains: ContainsSpec? = nil) {
      self.prefixItems = prefixItems
      self.items = items
      self.minItems = minItems
      self.maxItems = maxItems
      self.contains = contains
    }

    func item(at index: Int) -> Int32? {
      index < prefixItems.count ? prefixItems[index] : items
    }
    /// Counts above this behave alike.
    var countCap: Int { max(prefixItems.count, minItems, maxItems ?? 0) }
  }

  final class ObjectSpec: Sendable {
    struct Property: Sendable {
      var name: String
      /// `"name":` exactly as generated.
      var keyBytes: [UInt8]
      var node: Int32
      var isRequired: Bool
    }
    /// Undeclared members of one kind: a name read by the string node `key` (kept distinct
    /// from the declared names by `names`), then a value of `value`.
    struct AdditionalKind: Sendable {
      var key: Int32
      var value: Int32
    }
    let properties: [Property]
    /// The kinds of undeclared member allowed (none: the object is closed).
    ///
    /// Kinds do not overlap: a name is read by one kind only.
    let additional: [AdditionalKind]
    /// For each index, the first required property at or after it (or `properties.count`).
    let firstRequired: [Int]
    /// Declared names as a byte trie, so additional keys can be kept distinct from them.
    let names: NameTrie
    let minProperties: Int
    let maxProperties: Int?
    /// For each index, how many required properties are at or after it.
    let requiredFrom: [Int]

    init(
      properties: [Property], additional: [AdditionalKind], firstRequired: [Int], names: NameTrie, minProperties: Int,
      maxProperties: Int?, requiredFrom: [Int]
    ) {
      self.properties = properties
      self.additional = additional
      self.firstRequired = firstRequired
      self.names = names
      self.minProperties = minProperties
      self.maxProperties = maxProperties
      self.requiredFrom = requiredFrom
    }

    /// Whether members are counted at all (only when a count is bounded).
    var countsMembers: Bool { minProperties > 0 || maxProperties != nil }

    /// The keys that may start the next member when `members` members exist and the
    /// properties before `index` are behind: declared property indexes, and whether an
    /// additional key may.
    ///
    /// Choices that could no longer meet the member counts are left out.
    func keyCandidates(index: Int, members: Int) -> (declared: [Int], additional: Bool) {
      let count = properties.count
      let last = firstRequired[index]
      var declared: [Int] = []
      for j in index..<min(last + 1, count) {
        let after = members + 1
        if let maxProperties, after + requiredFrom[j + 1] > maxProperties { continue }
        if additional.isEmpty, after + (count - j - 1) < minProperties { continue }
        declared.append(j)
      }
      var extra = last == count && !additional.isEmpty
      if let maxProperties, members + 1 > maxProperties { extra = false }
      return (declared, extra)
    }
  }

  var nodes: [Node]
  var root: Int32
  /// The literal node of the space written after each `:` and `,` (`ConstraintOptions.spacesSeparators`);
  /// nil when separators are written without one.
  var separatorSpace: Int32?
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
