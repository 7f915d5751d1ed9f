/// A model vocabulary as byte strings, indexed for mask computation.
///
/// Special tokens (chat markers, end of sequence) are kept out of the tries: they are never
/// JSON text; end-of-sequence tokens are allowed exactly when the value is complete.
///
/// Why two tries: most masks are computed inside a JSON string, where every *plain* token
/// (no `"`, `\` or control byte, whole UTF-8 characters) is allowed as long as its length
/// fits. Those masks are precomputed by length (`plainMasks`), and only the remaining
/// tokens are walked through the automaton.
public final class Vocabulary: Sendable {
  /// Byte string of each token id.
  public let tokens: [[UInt8]]
  /// Tokens that end generation.
  public let endOfSequenceTokens: [Int]
  /// Tokens that never appear in JSON output (includes the end-of-sequence tokens).
  public let specialTokens: Set<Int>
  /// Text tokens made of white space, `,`, `]` and `}` only (`\n`, `}\n`, `},\n  `): the layout
  /// a model that pretty-prints writes where a value ends.
  ///
  /// Those with white space are never allowed in the compact JSON the constraint admits.
  public let layoutTokens: [Int]

  /// Per token id: 0 text, 1 special, 2 end of sequence (an array: checked on every token).
  let kinds: [UInt8]
  /// All text tokens.
  let trie: TokenTrie
  /// Text tokens that are not plain string content.
  let nonPlainTrie: TokenTrie
  /// `plainMasks[k]`: plain tokens of at most `k` characters (k ≥ 1).
  let plainMasks: [TokenMask]
  /// Text tokens that begin with `"`, `]` or `}`: those that can end a string, an array or an
  /// object (see `TokenMatcher`'s loop stopping).
  let closerMasks: [UInt8: TokenMask]
  /// Text tokens with a `,` anywhere: the only ones that can end a member and go on to the next
  /// in one token (`"},{"`), see `TokenMatcher`'s loop stopping.
  let commaMask: TokenMask
  /// Text tokens that begin with `,`, `]` or `}`, and the end-of-sequence tokens: those that
  /// can end a number (see `TokenMatcher`'s loop stopping).
  let numberEndMask: TokenMask
  /// Per token id: whether it is a number or part of one, for `LoopWatch`.
  let numberShapes: [NumberShape]

  /// - Parameters:
  ///   - tokens: the byte string of each token id.
  ///   - specialTokens: ids that are not text (never allowed inside JSON).
  ///   - endOfSequenceTokens: ids that end generation (allowed when the value is complete).
  public init(tokens: [[UInt8]], specialTokens: Set<Int> = [], endOfSequenceTokens: [Int] = []) {
    self.tokens = tokens
    self.endOfSequenceTokens = endOfSequenceTokens
    let special = specialTokens.union(endOfSequenceTokens)
    self.specialTokens = special
    var kinds = [UInt8](repeating: 0, count: tokens.count)
    for t in special where kinds.indices.contains(t) { kinds[t] = 1 }
    for t in endOfSequenceTokens where kinds.indices.contains(t) { kinds[t] = 2 }
    self.kinds = kinds
    let text = tokens.indices.filter { !special.contains($0) }
    trie = TokenTrie(tokens: tokens, ids: text)
    let lengths = text.map { (id: $0, length: Self.plainLength(tokens[$0])) }
    nonPlainTrie = TokenTrie(tokens: tokens, ids: lengths.filter { $0.length == nil }.map(\.id))
    let longest = lengths.compactMap(\.length).max() ?? 0
    var masks = [TokenMask(count: tokens.count)]
    var byLength = [[Int]](repeating: [], count: longest + 1)
    for (id, length) in lengths { if let length { byLength[length].append(id) } }
    for k in 1...max(longest, 1) {
      var m = masks[k - 1]
      if k <= longest { for id in byLength[k] { m.insert(id) } }
      masks.append(m)
    }
    plainMasks = masks
    var closers: [UInt8: TokenMask] = [:]
    for byte in Array("\"]}".utf8) {
      var mask = TokenMask(count: tokens.count)
      for id in text where tokens[id].first == byte { mask.insert(id) }
      closers[byte] = mask
    }
    closerMasks = closers
    var commas = TokenMask(count: tokens.count)
    for id in text where tokens[id].contains(UInt8(ascii: ",")) { commas.insert(id) }
    commaMask = commas
    var numberEnds = TokenMask(count: tokens.count)
    let afterNumber = Array(",]}".utf8)
    for id in text where tokens[id].first.map(afterNumber.contains) ?? false { numberEnds.insert(id) }
    for id in endOfSequenceTokens where tokens.indices.contains(id) { numberEnds.insert(id) }
    numberEndMask = numberEnds
    let layout = Set(Array(" \t\n\r,]}".utf8))
    layoutTokens = text.filter { !tokens[$0].isEmpty && tokens[$0].allSatisfy(layout.contains) }
    numberShapes = tokens.map { NumberShape($0) }
  }

  /// Number of characters of a token that is plain string content, else `nil`.
  static func plainLength(_ bytes: [UInt8]) -> Int? {
    guard !bytes.isEmpty, !bytes.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) else { return nil }
    var count = 0
    var decoder = UTF8()
    var iterator = bytes.makeIterator()
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue: count += 1
      case .emptyInput: return count
      case .error: return nil
      }
    }
  }

  /// Number of token ids.
  public var count: Int { tokens.count }

  /// Number of trie nodes (diagnostics).
  public var trieNodeCount: Int { trie.nodeCount }

  /// Number of trie nodes of the tokens that are not plain string content (diagnostics).
  public var nonPlainTrieNodeCount: Int { nonPlainTrie.nodeCount }

  /// The longest token in bytes.
  var maxDepth: Int { trie.maxDepth }
}
