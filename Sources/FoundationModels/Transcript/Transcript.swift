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

  /// Matches FoundationModels `Transcript.subscript(_:)` (settable since 27).
  public subscript(index: Int) -> Entry {
    get { entries[index] }
    set { entries[index] = newValue }
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

extension Transcript: MutableCollection, RangeReplaceableCollection {
  public typealias SubSequence = Slice<Transcript>

  /// An empty transcript.
  ///
  /// Matches FoundationModels 27 `Transcript.init()`.
  public init() {
    entries = []
  }

  /// Matches FoundationModels 27 `Transcript.replaceSubrange(_:with:)`.
  public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: consuming C)
  where C.Element == Entry {
    entries.replaceSubrange(subrange, with: newElements)
  }

  /// The conversation: every entry after the leading instructions entry.
  ///
  /// Writing it replaces those entries and keeps the instructions — the way to trim or summarise a
  /// context.
  ///
  /// Matches FoundationModels 27 `Transcript.history`.
  public var history: ArraySlice<Entry> {
    get { entries[historyStart...] }
    set { entries.replaceSubrange(historyStart..., with: newValue) }
  }

  private var historyStart: Int {
    if case .instructions? = entries.first { 1 } else { 0 }
  }
}
