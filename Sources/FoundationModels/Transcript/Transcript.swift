/// The history of a session: instructions, prompts, tool calls and their outputs, responses.
///
/// Matches FoundationModels `Transcript`. It is a random-access collection of ``Entry`` values
/// and is `Codable` in Apple's JSON shape (see `Transcript+Codable.swift`). A session created
/// from a transcript continues its conversation.
public struct Transcript: Sendable, Equatable, RandomAccessCollection, CustomStringConvertible {
  /// Matches FoundationModels `Transcript.Element`.
  public typealias Element = Entry
  /// Matches FoundationModels `Transcript.Index`.
  public typealias Index = Int

  var entries: [Entry]

  /// Creates a transcript from entries, in order.
  ///
  /// Matches FoundationModels `Transcript.init(entries:)`.
  public init(entries: some Sequence<Entry> = []) {
    self.entries = Array(entries)
  }

  /// Matches FoundationModels `Transcript.subscript(_:)`.
  public subscript(index: Int) -> Entry {
    entries[index]
  }

  /// Matches FoundationModels `Transcript.startIndex`.
  public var startIndex: Int { entries.startIndex }

  /// Matches FoundationModels `Transcript.endIndex`.
  public var endIndex: Int { entries.endIndex }

  /// The entries, one per line, with their role and text.
  ///
  /// Matches FoundationModels `Transcript.description`.
  public var description: String {
    entries.map(\.description).joined(separator: "\n")
  }
}
