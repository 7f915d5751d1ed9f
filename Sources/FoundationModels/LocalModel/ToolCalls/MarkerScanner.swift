import GuidedDecoding
import Synchronization

/// Finds a marker (`<tool_call>`) in free text as it is generated, token by token, whatever
/// tokens spell it: the state is how much of the marker the text ends with (Knuth–Morris–Pratt).
///
/// For each state it knows which tokens would complete the marker — exactly at their last byte,
/// or with more text after it (`overshooting`). A constraint bans the overshooting ones, so a
/// call always starts at a token boundary, or all of them, so no call can start at all.
final class MarkerScanner: @unchecked Sendable {
  let marker: [UInt8]
  private let vocabulary: Vocabulary
  private let failure: [Int]
  /// Tokens whose text is a non-empty prefix of the marker (a call may start with them).
  let prefixTokens: Set<Int>
  // Guarded by `lock`: built per state on first use, then read only.
  private let lock = Mutex<[Int: Completions]>([:])

  struct Completions {
    /// Tokens whose last byte completes the marker.
    var exact: [Int] = []
    /// Tokens that complete the marker and go on after it.
    var overshooting: [Int] = []
  }

  init(marker: String, vocabulary: Vocabulary) {
    self.marker = Array(marker.utf8)
    self.vocabulary = vocabulary
    var failure = [Int](repeating: 0, count: self.marker.count + 1)
    var k = 0
    for i in 1..<max(self.marker.count, 1) {
      while k > 0 && self.marker[i] != self.marker[k] { k = failure[k] }
      if self.marker[i] == self.marker[k] { k += 1 }
      failure[i + 1] = k
    }
    self.failure = failure
    let bytes = self.marker
    prefixTokens = Set(
      vocabulary.tokens.indices.filter { id in
        let piece = vocabulary.tokens[id]
        return !piece.isEmpty && piece.count <= bytes.count && bytes.starts(with: piece)
      })
  }

  /// The state after `bytes`, from `state`, and whether the marker was completed (and where:
  /// the number of bytes of `bytes` up to and including its last byte).
  func advance(_ state: Int, over bytes: [UInt8]) -> (state: Int, completedAt: Int?) {
    var k = state
    for (index, byte) in bytes.enumerated() {
      while k > 0 && marker[k] != byte { k = failure[k] }
      if marker[k] == byte { k += 1 }
      if k == marker.count { return (0, index + 1) }
    }
    return (k, nil)
  }

  /// The tokens that complete the marker from `state`.
  func completions(from state: Int) -> Completions {
    if let known = lock.withLock({ $0[state] }) { return known }
    var found = Completions()
    for (id, piece) in vocabulary.tokens.enumerated() where !piece.isEmpty {
      // From state 0 a token must hold the whole marker; skip the common case fast.
      if state == 0 && piece.count < marker.count { continue }
      guard let end = advance(state, over: piece).completedAt else { continue }
      if end == piece.count { found.exact.append(id) } else { found.overshooting.append(id) }
    }
    lock.withLock { $0[state] = found }
    return found
  }

  /// The last scanner made, for the vocabulary it holds: one slot, so a model loaded again (a
  /// new vocabulary) does not leave the old vocabulary's scanner behind.
  private static let last = Mutex<MarkerScanner?>(nil)

  /// The scanner of `marker` for `vocabulary`, shared by the generations on it.
  static func shared(marker: String, vocabulary: Vocabulary) -> MarkerScanner {
    last.withLock { last in
      if let scanner = last, scanner.vocabulary === vocabulary, scanner.marker == Array(marker.utf8) { return scanner }
      let scanner = MarkerScanner(marker: marker, vocabulary: vocabulary)
      last = scanner
      return scanner
    }
  }
}
