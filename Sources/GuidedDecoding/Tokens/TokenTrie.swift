/// Token byte strings as a trie stored in depth-first preorder with each node's subtree
/// end, so a mask walk is one linear scan that skips a whole subtree as soon as the
/// automaton rejects its prefix.
struct TokenTrie: Sendable {
  // Node 0 is the root (empty prefix).
  let nodeByte: [UInt8]
  let nodeDepth: [Int32]
  /// Index just past the node's subtree.
  let subtreeEnd: [Int32]
  /// Tokens ending at node `i` are `nodeTokens[tokenStart[i]..<tokenStart[i + 1]]`.
  let tokenStart: [Int32]
  let nodeTokens: [Int32]
  let maxDepth: Int

  /// Builds the trie of the given token ids (empty byte strings are left out).
  init(tokens: [[UInt8]], ids: [Int]) {
    let order = ids.filter { !tokens[$0].isEmpty }.sorted { tokens[$0].lexicographicallyPrecedes(tokens[$1]) }
    var bytes: [UInt8] = [0]
    var depth: [Int32] = [0]
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
        owners.append([])
        path.append(bytes.count - 1)
      }
      owners[path[t.count]].append(Int32(id))
      previous = t
    }
    // A node's subtree runs until the next node at the same or a lower depth.
    var ends = [Int32](repeating: Int32(bytes.count), count: bytes.count)
    var stack: [Int] = []
    for i in 1..<max(bytes.count, 1) {
      while let top = stack.last, depth[top] >= depth[i] {
        ends[top] = Int32(i)
        stack.removeLast()
      }
      stack.append(i)
    }
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

  var nodeCount: Int { nodeByte.count }

  /// The node whose path from the root spells `bytes`, if any token starts with them.
  func node(spelling bytes: [UInt8]) -> Int? {
    var node = 0
    for byte in bytes {
      guard let next = child(of: node, byte: byte) else { return nil }
      node = next
    }
    return node
  }

  /// The child of `node` reached by `byte`, if any.
  private func child(of node: Int, byte: UInt8) -> Int? {
    // Children of `node` are the nodes of its subtree one level down.
    var child = node + 1
    let end = Int(subtreeEnd[node])
    while child < end && nodeByte[child] != byte { child = Int(subtreeEnd[child]) }
    return child < end ? child : nil
  }

  /// Sets in `words` the bit of every token below `root` (strictly longer than its prefix)
  /// whose bytes after that prefix the automaton accepts from `start`.
  ///
  /// From the trie's root, that is every token the automaton accepts.
  /// - Parameter scratch: at least `maxDepth + 1` entries.
  func walk(
    from start: Int32, below root: Int = 0, automaton: ConstraintAutomaton, words: UnsafeMutableBufferPointer<UInt64>,
    scratch: UnsafeMutableBufferPointer<Int32>
  ) {
    let count = Int(subtreeEnd[root])
    nodeByte.withUnsafeBufferPointer { bytes in
      nodeDepth.withUnsafeBufferPointer { depths in
        subtreeEnd.withUnsafeBufferPointer { ends in
          tokenStart.withUnsafeBufferPointer { starts in
            nodeTokens.withUnsafeBufferPointer { owners in
              scratch[Int(depths[root])] = start
              // Why a local copy: reading the automaton's stored property on every node
              // costs an exclusivity check; it only changes when a transition is built.
              var table = automaton.table
              var i = root + 1
              while i < count {
                let d = Int(depths[i])
                let from = scratch[d - 1]
                var next = table[Int(from) &<< 8 | Int(bytes[i])]
                if next == ConstraintAutomaton.unknown {
                  next = automaton.transition(from, bytes[i])
                  table = automaton.table
                }
                if next < 0 {
                  i = Int(ends[i])
                  continue
                }
                scratch[d] = next
                var k = Int(starts[i])
                let end = Int(starts[i + 1])
                while k < end {
                  let token = Int(owners[k])
                  words[token >> 6] |= 1 << UInt64(token & 63)
                  k += 1
                }
                i += 1
              }
            }
          }
        }
      }
    }
  }

  /// The token of greedy longest match at `position`, with its length.
  func longestMatch(in bytes: [UInt8], at position: Int) -> (length: Int, token: Int)? {
    var node = 0
    var best: (Int, Int)?
    var i = position
    while i < bytes.count, let next = child(of: node, byte: bytes[i]) {
      node = next
      i += 1
      if tokenStart[node] < tokenStart[node + 1] { best = (i - position, Int(nodeTokens[Int(tokenStart[node])])) }
    }
    return best
  }
}
