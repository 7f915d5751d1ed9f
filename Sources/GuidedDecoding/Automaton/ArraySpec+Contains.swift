/// `contains` in the grammar: each element is written as one that matches (and is counted)
/// or as one that does not, and the array closes only once enough have matched.
extension JSONGrammar {
  struct ContainsSpec: Sendable {
    /// The matching form of each prefix item, then of the further items; nil: none there.
    var matchingPrefixItems: [Int32?]
    var matchingItems: Int32?
    /// With a maximum, the non-matching forms; without one (nil) the plain items, which may
    /// match too: only the lower bound is counted then.
    var otherPrefixItems: [Int32?]?
    var otherItems: Int32?
    var minimum: Int
    var maximum: Int?

    func matching(at index: Int) -> Int32? {
      index < matchingPrefixItems.count ? matchingPrefixItems[index] : matchingItems
    }

    /// The same counting with the nodes `productive` does not hold left out.
    func keeping(_ productive: [Bool]) -> ContainsSpec {
      func kept(_ node: Int32?) -> Int32? { node.flatMap { productive[Int($0)] ? $0 : nil } }
      var copy = self
      copy.matchingPrefixItems = matchingPrefixItems.map(kept)
      copy.matchingItems = kept(matchingItems)
      copy.otherPrefixItems = otherPrefixItems?.map(kept)
      copy.otherItems = kept(otherItems)
      return copy
    }
  }
}

extension JSONGrammar.ArraySpec {
  /// The ways to write element `index` when `matched` elements before it match: the node, and
  /// whether it counts as matching.
  ///
  /// Choices after which too few elements could still match are left out, so generation never ends
  /// up unable to close.
  func elementChoices(at index: Int, matched: Int) -> [(node: Int32, matches: Bool)] {
    guard let contains else { return item(at: index).map { [($0, false)] } ?? [] }
    var choices: [(node: Int32, matches: Bool)] = []
    let other =
      contains.otherPrefixItems.map { index < $0.count ? $0[index] : contains.otherItems } ?? item(at: index)
    if let other, canMatchEnough(from: index + 1, matched: matched) { choices.append((other, false)) }
    if let matching = contains.matching(at: index), matched + 1 <= contains.maximum ?? Int.max,
      canMatchEnough(from: index + 1, matched: matched + 1)
    {
      choices.append((matching, true))
    }
    return choices
  }

  /// Whether elements from `index` on can still bring the matches up to the minimum.
  func canMatchEnough(from index: Int, matched: Int) -> Bool {
    guard let contains else { return true }
    let needed = contains.minimum - matched
    if needed <= 0 { return true }
    let end = maxItems ?? Int.max
    if contains.matchingItems != nil, end == Int.max { return true }
    var available = 0
    var position = index
    while position < end, available < needed {
      if position >= contains.matchingPrefixItems.count {
        // Past the prefix every position is alike.
        if contains.matchingItems != nil { available += end - position }
        break
      }
      if contains.matching(at: position) != nil { available += 1 }
      position += 1
    }
    return available >= needed
  }

  /// Whether the array may end after `count` elements of which `matched` match.
  func canClose(count: Int, matched: Int) -> Bool {
    count >= minItems && matched >= (contains?.minimum ?? 0)
  }

  /// Match counts above this behave alike.
  var matchedCap: Int { contains.map { max($0.minimum, ($0.maximum ?? -1) + 1) } ?? 0 }
}
