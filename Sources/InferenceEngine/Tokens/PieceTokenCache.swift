import Synchronization

/// The tokens of recently tokenized prompt texts (the text between two control tokens).
///
/// A session renders its whole transcript every turn, and `tokenCount(for:)` is typically
/// asked about a transcript that grew by one turn since the last call. The text between two
/// control tokens (mostly one message) is tokenized on its own, so its tokens can be reused
/// as they are, where tokenizing a long transcript from scratch would be most of the call's
/// time (`bench/README.md`, "Engine and session").
final class PieceTokenCache: Sendable {
  /// Pieces shorter than this are tokenized directly: hashing them would cost about as much.
  static let minimumBytes = 64
  private let entries = Mutex<[String: [Token]]>([:])
  private let capacity: Int

  /// - Parameter capacity: pieces kept; when full, the cache starts over.
  init(capacity: Int = 4096) {
    self.capacity = capacity
  }

  /// The tokens of `text`, from the cache or from `tokenize`.
  func tokens(of text: String, tokenize: (String) -> [Token]) -> [Token] {
    guard text.utf8.count >= Self.minimumBytes else { return tokenize(text) }
    if let cached = entries.withLock({ $0[text] }) { return cached }
    let tokens = tokenize(text)
    entries.withLock { entries in
      if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
      entries[text] = tokens
    }
    return tokens
  }
}
