import InferenceEngine

/// Splits a thinking model's streamed output into its thinking and its answer at the
/// template's markers (`<think>`…`</think>`): the thinking becomes reasoning, never answer text.
///
/// Text that may be the start of a marker is held back until the next text settles it. The
/// white space after the opening and after the closing marker is left out.
struct ReasoningSplitter {
  enum Piece: Equatable {
    case reasoning(String)
    case answer(String)
  }

  private enum State {
    /// Before the first text: the model may open its thinking.
    case start
    case thinking(atStart: Bool)
    /// Where the answer may begin with `text`, which is left out (harmony's `<|start|>assistant`,
    /// then its `<|channel|>final<|message|>`); then `next`.
    indirect case leavingOut(String, then: State)
    case answering(atStart: Bool)
  }

  private let opening: String
  private let closing: String
  private let continuation: String
  private let answerHeader: String
  private var state: State
  private var held = ""

  init(syntax: ReasoningSyntax, startsInThinking: Bool) {
    opening = syntax.opening
    closing = syntax.closing
    continuation = syntax.continuation
    answerHeader = syntax.answerHeader
    state = startsInThinking ? .thinking(atStart: true) : .start
  }

  mutating func feed(_ text: String) -> [Piece] {
    held += text
    var pieces: [Piece] = []
    while let piece = step() { pieces.append(piece) }
    return pieces.filter { $0 != .reasoning("") && $0 != .answer("") }
  }

  /// What is still held: thinking that never closed stays reasoning.
  mutating func finish() -> [Piece] {
    defer { held = "" }
    switch state {
    case .start, .answering, .leavingOut: return held.isEmpty ? [] : [.answer(held)]
    case .thinking: return held.isEmpty ? [] : [.reasoning(held)]
    }
  }

  /// One piece from the held text, or nil when the rest must wait for more text.
  private mutating func step() -> Piece? {
    switch state {
    case .start:
      let trimmed = held.drop { $0.isWhitespace }
      if trimmed.hasPrefix(opening) {
        held = String(trimmed.dropFirst(opening.count))
        state = .thinking(atStart: true)
        return .reasoning("")
      }
      // Nothing yet but white space, or the start of the opening: wait.
      if opening.hasPrefix(trimmed) { return nil }
      if !answerHeader.isEmpty {
        state = .leavingOut(answerHeader, then: .answering(atStart: false))
        return .answer("")
      }
      state = .answering(atStart: false)
      return .answer(take(held.endIndex))
    case .thinking(let atStart):
      if atStart {
        held = String(held.drop { $0.isWhitespace })
        guard !held.isEmpty else { return nil }
        state = .thinking(atStart: false)
      }
      if let range = held.range(of: closing) {
        let thought = String(held[..<range.lowerBound])
        held = String(held[range.upperBound...])
        state = .answering(atStart: true)
        if !answerHeader.isEmpty { state = .leavingOut(answerHeader, then: .answering(atStart: true)) }
        if !continuation.isEmpty { state = .leavingOut(continuation, then: state) }
        return .reasoning(thought)
      }
      let safe = held.index(held.endIndex, offsetBy: -held.lengthOfMarkerStart(closing))
      guard safe > held.startIndex else { return nil }
      return .reasoning(take(safe))
    case .leavingOut(let text, let next):
      if held.hasPrefix(text) {
        held = String(held.dropFirst(text.count))
      } else if text.hasPrefix(held) {
        return nil
      }
      state = next
      return .answer("")
    case .answering(let atStart):
      if atStart {
        held = String(held.drop { $0.isWhitespace })
        guard !held.isEmpty else { return nil }
        state = .answering(atStart: false)
      }
      guard !held.isEmpty else { return nil }
      return .answer(take(held.endIndex))
    }
  }

  private mutating func take(_ end: String.Index) -> String {
    let taken = String(held[..<end])
    held = String(held[end...])
    return taken
  }
}
