/// Patterns for "any string but these", which regular expressions without lookahead can still
/// say: follow the words as a trie, and at each node allow stopping (when no word ends there),
/// any character that leaves the trie followed by anything, or a child's own complement.
enum RegexComplement {
  /// An anchored pattern matching exactly the strings not in `words`.
  static func pattern(excluding words: [String]) -> String {
    var trie = Node()
    for word in words { trie.insert(Array(word.unicodeScalars)[...]) }
    return "^" + trie.complement() + "$"
  }

  private struct Node {
    var children: [(Unicode.Scalar, Node)] = []
    var isWord = false

    mutating func insert(_ scalars: ArraySlice<Unicode.Scalar>) {
      guard let first = scalars.first else {
        isWord = true
        return
      }
      if let i = children.firstIndex(where: { $0.0 == first }) {
        children[i].1.insert(scalars.dropFirst())
      } else {
        var child = Node()
        child.insert(scalars.dropFirst())
        children.append((first, child))
      }
    }

    /// The strings that, appended to this node's prefix, give no word.
    func complement() -> String {
      var options: [String] = []
      if !isWord { options.append("") }
      if children.isEmpty {
        options.append(#"[\s\S]+"#)
      } else {
        let leaving = "[^" + children.map { RegexComplement.escaped($0.0) }.joined() + "]"
        options.append(leaving + #"[\s\S]*"#)
        for (scalar, child) in children {
          options.append(RegexComplement.escaped(scalar) + child.complement())
        }
      }
      return "(?:" + options.joined(separator: "|") + ")"
    }
  }

  /// `scalar` as a regex atom that is literal inside and outside a class.
  static func escaped(_ scalar: Unicode.Scalar) -> String {
    if scalar.value < 0x10000, !(scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) {
      let hex = String(scalar.value, radix: 16, uppercase: true)
      return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
    return String(Character(scalar))
  }
}
