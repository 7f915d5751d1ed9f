import GuidedDecoding
import Synchronization

/// The constraint automata of the schemas one local executor has decoded with, kept for its
/// next requests: a session's turns that ask for the same type, or offer the same tools, find
/// the automaton built and its tables filled.
///
/// An automaton fills its tables as it is used and is not thread-safe, so a generation takes
/// one for itself (a kept one, or a new one) and gives it back when it ends.
final class SchemaAutomata: Sendable {
  /// The most automata kept; the one given back longest ago goes first.
  static let limit = 16

  private struct Key: Hashable {
    let document: SchemaDocument
    let options: ConstraintOptions
  }

  /// Handed from one generation to the next, never used by two at once.
  private struct Kept: @unchecked Sendable {
    let key: Key
    let automaton: ConstraintAutomaton
  }

  private let kept = Mutex<[Kept]>([])

  /// An automaton of `schema` for one generation's use alone.
  func take(_ schema: CompiledSchema) -> ConstraintAutomaton {
    let key = Key(document: schema.document, options: schema.options)
    let found = kept.withLock { kept -> ConstraintAutomaton? in
      guard let index = kept.firstIndex(where: { $0.key == key }) else { return nil }
      return kept.remove(at: index).automaton
    }
    return found ?? schema.makeAutomaton()
  }

  /// Keeps `automaton`, of `schema`, for the next generation with it.
  func giveBack(_ automaton: ConstraintAutomaton, of schema: CompiledSchema) {
    let key = Key(document: schema.document, options: schema.options)
    kept.withLock { kept in
      kept.removeAll { $0.key == key }
      kept.append(Kept(key: key, automaton: automaton))
      if kept.count > Self.limit { kept.removeFirst() }
    }
  }
}
