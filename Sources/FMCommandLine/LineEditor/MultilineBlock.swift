/// Collects a `"""` block: a line that starts with `"""` opens it, and the line that ends with
/// `"""` closes it; the text between (without the quotes) is one prompt.
///
/// Matches `ollama run`: `"""Hello` … `world"""` sends `Hello\n…\nworld`.
struct MultilineBlock: Sendable, Equatable {
  private static let fence = "\"\"\""
  private var lines: [String]?

  /// Whether a block is open, so the shell shows the continuation prompt.
  var isOpen: Bool { lines != nil }

  /// What a submitted line means.
  enum Outcome: Equatable, Sendable {
    /// The line is complete input (not a block, or the block just closed).
    case complete(String)
    /// The block goes on; read another line.
    case needsMore
  }

  /// Feeds one submitted line.
  mutating func feed(_ line: String) -> Outcome {
    if var open = lines {
      if line.hasSuffix(Self.fence) {
        let last = String(line.dropLast(Self.fence.count))
        if !last.isEmpty { open.append(last) }
        lines = nil
        return .complete(open.joined(separator: "\n"))
      }
      open.append(line)
      lines = open
      return .needsMore
    }
    guard line.hasPrefix(Self.fence) else { return .complete(line) }
    let rest = String(line.dropFirst(Self.fence.count))
    if rest.count >= Self.fence.count, rest.hasSuffix(Self.fence) {
      return .complete(String(rest.dropLast(Self.fence.count)))
    }
    lines = rest.isEmpty ? [] : [rest]
    return .needsMore
  }

  /// Drops an open block (Ctrl+C).
  mutating func cancel() {
    lines = nil
  }
}
