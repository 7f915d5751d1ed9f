/// A model vocabulary as byte strings, indexed as a trie for mask computation.
///
/// The trie is stored in depth-first preorder with each node's subtree end, so a mask walk
/// is one linear scan that skips a whole subtree as soon as the automaton rejects its
/// prefix. Special tokens (chat markers, end of sequence) are kept out of the trie: they
/// are never JSON text; end-of-sequence tokens are allowed exactly when the value is
/// complete.
public final class Vocabulary: Sendable {
  /// Byte string of each token id.
  public let tokens: [[UInt8]]
  /// Tokens that end generation.
  public let endOfSequenceTokens: [Int]
  /// Tokens that never appear in JSON output (includes the end-of-sequence tokens).
  public let specialTokens: Set<Int>

  // Trie in preorder; node 0 is the root (empty prefix).
  let nodeByte: [UInt8]
  let nodeDepth: [Int32]
  /// Index just past the node's subtree.
  let subtreeEnd: [Int32]
  /// Tokens ending at node `i` are `nodeTokens[tokenStart[i]..<tokenStart[i + 1]]`.
  let tokenStart: [Int32]
  let nodeTokens: [Int32]
  let maxDepth: Int

  /// - Parameters:
  ///   - tokens: the byte string of each token id.
  ///   - specialTokens: ids that are not text (never allowed inside JSON).
  ///   - endOfSequenceTokens: ids that end generation (allowed when the value is complete).
  public init(tokens: [[UInt8]], specialTokens: Set<Int> = [], endOfSequenceTokens: [Int] = []) {
    self.tokens = tokens
    self.endOfSequenceTokens = endOfSequenceTokens
    self.specialTokens = specialTokens.union(endOfSequenceTokens)
    let special = self.specialTokens
    let order = tokens.indices.filter { !special.contains($0) && !tokens[$0].isEmpty }
      .sorted { tokens[$0].lexicographicallyPrecedes(tokens[$1]) }

    var bytes: [UInt8] = [0]
    var depth: [Int32] = [0]
    var ends: [Int32] = [0]
    var owners: [[Int32]] = [[]]
    // Path of node indices from the root to the last inserted token.
    var path: [Int] = [0]
    var previous: [UInt8] = []
    for id in order {
      let t = tokens[id]
      var common = 0
      while common < min(t.count, previous.count), t[common] == previous[common] { common += 1 }
      path.removeLast(path.count - 1 - common)
      for d in common..<t.count {
        bytes.append(t[d])
        depth.append(Int32(d + 1))
        ends.append(0)
        owners.append([])
        path.append(bytes.count - 1)
      }
      owners[path[t.count]].append(Int32(id))
      previous = t
    }
    // Subtree ends: a node's subtree runs until the next node at the same or lower depth.
    var stack: [Int] = []
    for i in 0..<bytes.count {
      while let top = stack.last, depth[top] >= depth[i], i > 0 {
        ends[top] = Int32(i)
        stack.removeLast()
      }
      stack.append(i)
    }
    for top in stack { ends[top] = Int32(bytes.count) }
    var starts: [Int32] = [0]
    var flat: [Int32] = []
    for o in owners {
      flat += o
      starts.append(Int32(flat.count))
    }
    nodeByte = bytes
    nodeDepth = depth
    subtreeEnd = ends
    tokenStart = starts
    nodeTokens = flat
    maxDepth = Int(depth.max() ?? 0)
  }

  /// Number of token ids.
  public var count: Int { tokens.count }

  /// Number of trie nodes (diagnostics).
  public var trieNodeCount: Int { nodeByte.count }
}
