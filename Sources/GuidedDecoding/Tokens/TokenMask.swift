/// A set of token ids as a bitset: bit `i` set means token `i` may come next.
public struct TokenMask: Sendable, Hashable {
  /// 64 tokens per word, token `i` at bit `i % 64` of word `i / 64`.
  public private(set) var words: [UInt64]
  /// The vocabulary size.
  public let count: Int

  /// An empty mask for a vocabulary of `count` tokens.
  public init(count: Int) {
    self.count = count
    self.words = [UInt64](repeating: 0, count: (count + 63) / 64)
  }

  /// Whether `token` is allowed.
  @inline(__always)
  public func contains(_ token: Int) -> Bool {
    guard token >= 0, token < count else { return false }
    return words[token >> 6] & (1 << UInt64(token & 63)) != 0
  }

  @inline(__always)
  public mutating func insert(_ token: Int) {
    words[token >> 6] |= 1 << UInt64(token & 63)
  }

  public mutating func remove(_ token: Int) {
    words[token >> 6] &= ~(1 << UInt64(token & 63))
  }

  /// How many tokens are allowed.
  public var allowedCount: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

  public var isEmpty: Bool { words.allSatisfy { $0 == 0 } }

  /// The allowed token ids in increasing order.
  public var allowedTokens: [Int] {
    var result: [Int] = []
    for (w, word) in words.enumerated() where word != 0 {
      var bits = word
      while bits != 0 {
        result.append(w << 6 | bits.trailingZeroBitCount)
        bits &= bits - 1
      }
    }
    return result
  }

  /// Keeps only the bits that `other` has too.
  public mutating func formIntersection(_ other: TokenMask) {
    for i in words.indices { words[i] &= other.words[i] }
  }

  /// Sets every bit of `other` in this mask too.
  public mutating func formUnion(_ other: TokenMask) {
    for i in words.indices { words[i] |= other.words[i] }
  }

  mutating func withMutableWords<R>(_ body: (UnsafeMutableBufferPointer<UInt64>) -> R) -> R {
    words.withUnsafeMutableBufferPointer { body($0) }
  }
}
