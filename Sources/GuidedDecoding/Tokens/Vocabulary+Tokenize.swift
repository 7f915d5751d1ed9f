extension Vocabulary {
  /// Splits bytes into tokens by greedy longest match.
  ///
  /// Not the model's own tokenizer (BPE merges can differ), but every result is a valid
  /// spelling of the bytes; useful for tests and as a fallback for forced text.
  /// - Returns: `nil` when some byte has no token.
  public func greedyTokenize(_ bytes: [UInt8]) -> [Int]? {
    var result: [Int] = []
    var position = 0
    while position < bytes.count {
      guard let match = trie.longestMatch(in: bytes, at: position) else { return nil }
      result.append(match.token)
      position += match.length
    }
    return result
  }
}
