import Foundation
import ModelStore
import Synchronization

/// What `fm generate` shows on a terminal while it works: how much JSON has been written and
/// for how long, and the token limit when one is set ("generating · 1.2 kB · 4.1 s · at most
/// 256 tokens · Ctrl+C stops").
final class GenerationProgress: Sendable {
  private let start = ContinuousClock.now
  private let bytes = Mutex(0)
  private let maximumTokens: Int?

  init(maximumTokens: Int?) {
    self.maximumTokens = maximumTokens
  }

  /// Records the output so far (cumulative).
  func update(_ text: String) {
    let count = text.utf8.count
    bytes.withLock { $0 = count }
  }

  /// The line the spinner shows.
  var message: String {
    let elapsed = (ContinuousClock.now - start).components
    let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    let written = bytes.withLock { $0 }
    var parts = ["generating", ByteCountFormat.string(Int64(written)), String(format: "%.1f s", seconds)]
    if let maximumTokens { parts.append("at most \(maximumTokens) tokens") }
    parts.append("Ctrl+C stops")
    return parts.joined(separator: " · ")
  }
}
