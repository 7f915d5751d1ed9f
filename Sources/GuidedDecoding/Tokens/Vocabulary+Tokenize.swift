extension Vocabulary {
  /// Splits bytes into tokens by greedy longest match over the trie.
  ///
  /// Not the model's own tokenizer (BPE merges can differ), but every result is a valid
  /// spelling of the bytes; useful for tests and as a fallback for forced text.
  /// - Returns: `nil` when some byte has no token.
  public func greedyTokenize(_ bytes: [UInt8]) -> [Int]? {
    var result: [Int] = []
    var position = 0
    while position < bytes.count {
      var node = 0
      var best: (length: Int, token: Int)?
      var i = position
      while i < bytes.count {
        // Children of `node` are the nodes in its subtree at depth + 1.
        var child = node + 1
        var found = -1
        let end = Int(subtreeEnd[node])
        while child < end {
          if nodeByte[child] == bytes[i] {
            found = child
            break
          }
          child = Int(subtreeEnd[child])
        }
        guard found >= 0 else { break }
        node = found
        i += 1
        if tokenStart[node] < tokenStart[node + 1] { best = (i - position, Int(nodeTokens[Int(tokenStart[node])])) }
      }
      guard let best else { return nil }
      result.append(best.token)
      position += best.length
    }
    return result
  }
}
