import Synchronization

/// The tokens of recently tokenized prompt pieces.
///
/// A session renders its whole transcript every turn, and `tokenCount(for:)` is typically
/// asked about a transcript that grew by one turn since the last call. Each message's content
/// is its own piece of the rendered prompt and is tokenized on its own (control tokens split
/// the text), so its tokens can be reused as they are, where tokenizing a long transcript from
/// scratch would be most of the call's time (`bench/README.md`, "Engine and session").
final class PieceTokenCache: Sendable {
  private struct Key: Hashable {
    var text: String
    var isControl: Bool
  }

  /// Pieces shorter than this are tokenized directly: hashing them would cost about as much.
  static let minimumBytes = 64
  private let entries = Mutex<[Key: [Token]]>([:])
  private let capacity: Int

  /// - Parameter capacity: pieces kept; when full, the cache starts over.
  init(capacity: Int = 4096) {
    self.capacity = capacity
  }

  /// The tokens of `piece`, from the cache or from `tokenize`.
  func tokens(of piece: RenderedPrompt.Piece, tokenize: (RenderedPrompt.Piece) -> [Token]) -> [Token] {
    guard piece.text.utf8.count >= Self.minimumBytes else { return tokenize(piece) }
    let key = Key(text: piece.text, isControl: piece.isControl)
    if let cached = entries.withLock({ $0[key] }) { return cached }
    let tokens = tokenize(piece)
    entries.withLock { entries in
      if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
      entries[key] = tokens
    }
    return tokens
  }
}
