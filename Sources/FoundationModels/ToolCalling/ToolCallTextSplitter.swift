/// Splits the local model's output, as it streams, into the answer's text and the tool calls it
/// writes (`ToolCallFormat`). The output comes from `ToolCallConstraint`, so every call is
/// well formed; text that might be the start of a marker is held back until it is known not to be.
struct ToolCallTextSplitter {
  enum Piece: Equatable {
    case text(String)
    /// A call: the tool's name and its arguments as JSON text.
    case call(name: String, arguments: String)
  }

  private var pending = ""
  private var inCall = false
  private var sawCall = false
  /// While the output may still open a call in the model's own form (`CallOpening`): at its
  /// start, where the constraint lets it (`ToolCallConstraint.ownFormOpening`).
  private var opening: CallOpening?

  /// - Parameter opening: how the output may open its first call in the model's own form, as
  ///   the constraint allows for it; nil where only the marker opens calls.
  init(opening: CallOpening? = nil) {
    self.opening = opening
  }

  /// The pieces `text` completes.
  mutating func feed(_ text: String) -> [Piece] {
    pending += text
    var pieces: [Piece] = []
    if var matcher = opening {
      // Held until decided. Once the name is whole the constraint has written the call in the
      // one format from its object on: the call is that object, up to the closing marker.
      switch matcher.feed(text.utf8) {
      case .undecided:
        opening = matcher
        return []
      case .text:
        opening = nil
      case .opened:
        opening = nil
        if let object = pending.firstIndex(of: "{") {
          pending = String(pending[object...])
          inCall = true
        }
      }
    }
    while true {
      if inCall {
        guard let end = pending.range(of: ToolCallFormat.closing) else { break }
        pieces.append(Self.call(in: String(pending[..<end.lowerBound])))
        pending = String(pending[end.upperBound...])
        inCall = false
        sawCall = true
      } else if let start = pending.range(of: ToolCallFormat.marker) {
        emit(String(pending[..<start.lowerBound]), into: &pieces)
        pending = String(pending[start.upperBound...])
        inCall = true
      } else {
        let held = Self.markerPrefixLength(atEndOf: pending)
        emit(String(pending.dropLast(held)), into: &pieces)
        pending = String(pending.suffix(held))
        break
      }
    }
    return pieces
  }

  /// The pieces left at the end of the output.
  /// - Throws: `ToolCallSplitError` when the output ends inside a call (the token budget ran out).
  mutating func finish() throws -> [Piece] {
    guard !inCall else { throw ToolCallSplitError(partialCall: pending) }
    opening = nil
    var pieces: [Piece] = []
    emit(pending, into: &pieces)
    pending = ""
    return pieces
  }

  /// Text is passed on, except the line breaks between calls.
  private func emit(_ text: String, into pieces: inout [Piece]) {
    guard !text.isEmpty, !(sawCall && text.allSatisfy(\.isWhitespace)) else { return }
    pieces.append(.text(text))
  }

  /// The call in the text between its marker and its closing:
  /// `\n{"name": "…", "arguments": {…}}\n`.
  private static func call(in body: String) -> Piece {
    let json = body.trimmingCharacters(in: .whitespacesAndNewlines)
    guard let content = try? GeneratedContent(json: json), case .structure(let properties, _) = content.kind,
      case .string(let name)? = properties["name"]?.kind, let arguments = properties["arguments"]
    else {
      // Not reachable through the constraint; passed on so the session reports it.
      return .call(name: "", arguments: json)
    }
    return .call(name: name, arguments: arguments.jsonString)
  }

  /// How many characters at the end of `text` are the start of a marker.
  private static func markerPrefixLength(atEndOf text: String) -> Int {
    let marker = ToolCallFormat.marker
    for length in stride(from: min(marker.count - 1, text.count), to: 0, by: -1)
    where text.hasSuffix(marker.prefix(length)) {
      return length
    }
    return 0
  }
}

/// The output ended inside a tool call.
struct ToolCallSplitError: Error, CustomStringConvertible {
  let partialCall: String
  var description: String { "The response ended inside a tool call: \(partialCall)" }
}
