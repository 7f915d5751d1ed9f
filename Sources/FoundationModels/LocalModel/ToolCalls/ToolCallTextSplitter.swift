/// Splits the local model's output, as it streams, into the answer's text and the tool calls it
/// writes (`ToolCallFormat`).
///
/// The output comes from `ToolCallConstraint`, so every call is well formed; text that might be the
/// start of a marker is held back until it is known not to be.
struct ToolCallTextSplitter {
  enum Piece: Equatable {
    case text(String)
    /// A call whose name is written, its arguments not yet: announced as soon as it is known
    /// (for a marked call), before the call's `call` piece.
    case opened(name: String)
    /// A call: the tool's name and its arguments as JSON text.
    case call(name: String, arguments: String)
  }

  private enum State {
    /// Text, where the marker opens a call.
    case text
    /// Deciding whether the output opens a call in the model's own form (`CallOpening`): before
    /// any call, or after such a call.
    ///
    /// What may still open one is held: where calls open on any line (`CallOpening.everyLine`) the
    /// current line only, else everything since.
    case opening(CallOpening)
    /// Inside a call opened by the marker, after `prefix` (what comes before the name, not yet
    /// read), up to the call's suffix.
    case markedCall(prefix: String)
    /// After a call opened by the marker: the next call, the calls' closing, or text.
    case afterMarkedCall
    /// Inside a call in the model's own form, from its object's opening brace to its closing one.
    case objectCall
  }

  private var pending = ""
  private var state = State.text
  private var sawCall = false
  /// The calls read so far: the index of the next.
  private var callCount = 0
  /// The marked calls whose opening was announced (`Piece.opened`).
  private var announced = 0
  /// How the next call opens after a call in the model's own form.
  private let betweenOwnCalls: CallOpening?
  /// The calls' format, as the constraint writes them.
  let format: ToolCallFormat
  /// Per tool, the members whose values are raw text where arguments are tagged members
  /// (`TaggedArgumentsConstraint.textMembers(of:)`).
  private let textMembers: [String: Set<String>]

  /// - Parameter opening: how the output may open its first call in the model's own form, as
  ///   the constraint allows for it (`ToolCallConstraint.ownFormOpening`); nil where only the
  ///   marker opens calls.
  init(opening: CallOpening? = nil, format: ToolCallFormat = .hermes, textMembers: [String: Set<String>] = [:]) {
    self.format = format
    self.textMembers = textMembers
    betweenOwnCalls = opening?.afterCall()
    if let opening { state = .opening(opening) }
  }

  /// The pieces `text` completes.
  mutating func feed(_ text: String) -> [Piece] {
    pending += text
    var pieces: [Piece] = []
    // What the opening under way has not been fed yet.
    var unseen = Substring(text)
    while true {
      switch state {
      case .opening(var opening):
        // Where calls open on any line the marker may open one too (and the constraint lets
        // no call in the model's own form come before it).
        if opening.everyLine, let marker = pending.range(of: format.marker) {
          emit(String(pending[..<marker.lowerBound]), into: &pieces)
          pending = String(pending[marker.upperBound...])
          state = .markedCall(prefix: format.namePrefix)
          continue
        }
        switch opening.feed(unseen.utf8) {
        case .undecided:
          state = .opening(opening)
          guard opening.everyLine else { return pieces }
          // Text up to the line that may still open a call is text.
          let line = startOfLast(opening.heldBytes)
          let marker = pending.index(pending.endIndex, offsetBy: -pending.lengthOfMarkerStart(format.marker))
          emit(String(pending[..<min(line, marker)]), into: &pieces)
          pending = String(pending[min(line, marker)...])
          return pieces
        case .text:
          state = .text
        case .opened(_, let overshoot):
          // Once the name is whole the constraint writes the call in the one format from its
          // object on: the call is that object, on the line that opened it.
          let line = startOfLast(opening.heldBytes + overshoot.count)
          emit(String(pending[..<line]), into: &pieces)
          // The object whose first key is the name (the inner one of a doubled `{{`).
          guard
            let object = pending[line...].indices.first(where: { index in
              pending[index] == "{" && pending[pending.index(after: index)...].first { !$0.isWhitespace } == "\""
            })
          else {
            state = .text
            continue
          }
          pending = String(pending[object...])
          state = .objectCall
        }
      case .objectCall:
        guard let end = Self.endOfObject(in: pending[...]) else { return pieces }
        pieces.append(Self.call(in: String(pending[..<end])))
        pending = String(pending[end...])
        sawCall = true
        // Only the next call in the same form, or the end of the output, follows.
        state = betweenOwnCalls.map(State.opening) ?? .text
        unseen = Substring(pending)
      case .markedCall(let prefix):
        let prefix = ToolCallFormat.text(prefix, call: callCount)
        switch Self.call(in: pending[...], after: prefix, format: format, index: callCount, textMembers: textMembers) {
        case .incomplete:
          if announced == callCount,
            case .name(let name, _) = Self.name(in: pending[...], after: prefix, format: format, index: callCount)
          {
            pieces.append(.opened(name: name))
            announced += 1
          }
          return pieces
        case .call(let name, let arguments, let rest):
          pieces.append(.call(name: name, arguments: arguments))
          pending = String(pending[rest...])
          callCount += 1
          announced = callCount
          sawCall = true
          state = .afterMarkedCall
        case .malformed:
          // Not reachable through the constraint; passed on so the session reports it.
          pieces.append(.call(name: "", arguments: pending))
          pending = ""
          state = .text
        }
      case .afterMarkedCall:
        // The next call (its separator and opening), the calls' closing, or text.
        let next = format.nextCallOpening(call: callCount)
        let closing = format.closing
        if pending.utf8.starts(with: next.utf8) {
          pending = String(decoding: pending.utf8.dropFirst(next.utf8.count), as: UTF8.self)
          state = .markedCall(prefix: "")
        } else if !closing.isEmpty, pending.utf8.starts(with: closing.utf8) {
          pending = String(decoding: pending.utf8.dropFirst(closing.utf8.count), as: UTF8.self)
          state = .text
        } else if next.utf8.starts(with: pending.utf8) || closing.utf8.starts(with: pending.utf8) {
          return pieces
        } else {
          state = .text
        }
      case .text:
        if let start = pending.range(of: format.marker) {
          emit(String(pending[..<start.lowerBound]), into: &pieces)
          pending = String(pending[start.upperBound...])
          state = .markedCall(prefix: format.namePrefix)
        } else {
          let held = pending.lengthOfMarkerStart(format.marker)
          emit(String(pending.dropLast(held)), into: &pieces)
          pending = String(pending.suffix(held))
          return pieces
        }
      }
    }
  }

  /// The pieces left at the end of the output.
  /// - Throws: `ToolCallSplitError` when the output ends inside a call (the token budget ran out).
  mutating func finish() throws -> [Piece] {
    var pieces: [Piece] = []
    switch state {
    case .markedCall, .objectCall:
      throw ToolCallSplitError(partialCall: pending)
    case .opening where sawCall, .afterMarkedCall:
      // What follows a call in the model's own form, a fence's or tag's closing, is no text.
      break
    case .opening, .text:
      emit(pending, into: &pieces)
    }
    pending = ""
    state = .text
    return pieces
  }

  /// Where the last `bytes` bytes of `pending` begin (its start, when it holds fewer).
  private func startOfLast(_ bytes: Int) -> String.Index {
    pending.utf8.index(pending.utf8.endIndex, offsetBy: -min(bytes, pending.utf8.count))
  }

  /// Text is passed on, except the line breaks between calls.
  private func emit(_ text: String, into pieces: inout [Piece]) {
    guard !text.isEmpty, !(sawCall && text.allSatisfy(\.isWhitespace)) else { return }
    pieces.append(.text(text))
  }

  /// The end of the JSON object at the start of `text` (just past its closing brace), or nil
  /// while it is not whole.
  private static func endOfObject(in text: Substring) -> String.Index? {
    var depth = 0
    var inString = false
    var escaped = false
    for index in text.utf8.indices {
      let byte = text.utf8[index]
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""): inString = true
      case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        depth -= 1
        if depth == 0 { return text.utf8.index(after: index) }
      default: continue
      }
    }
    return nil
  }

  enum MarkedCall {
    case incomplete
    case malformed
    /// A call, and where the text after it starts.
    case call(name: String, arguments: String, rest: String.Index)
  }

  /// The call at the start of `text` in `format`, after the fixed text `prefix`: its name, the
  /// arguments' prefix, its arguments and its suffix.
  static func call(
    in text: Substring, after prefix: String, format: ToolCallFormat, index: Int,
    textMembers: [String: Set<String>] = [:]
  ) -> MarkedCall {
    let argumentsPrefix = ToolCallFormat.text(format.argumentsPrefix, call: index)
    let name: String
    let nameEnd: String.Index
    switch Self.name(in: text, after: prefix, format: format, index: index) {
    case .incomplete: return .incomplete
    case .malformed: return .malformed
    case .name(let written, let end):
      name = written
      nameEnd = end
    }
    guard let afterArgumentsPrefix = end(of: argumentsPrefix, in: text, at: nameEnd) else { return .malformed }
    guard let argumentsStart = afterArgumentsPrefix else { return .incomplete }
    if let tagged = format.taggedArguments {
      return taggedCall(
        in: text, from: argumentsStart, name: name, tagged: tagged,
        suffix: ToolCallFormat.text(format.suffix, call: index),
        textMembers: textMembers[name] ?? [])
    }
    guard let argumentsEnd = endOfObject(in: text[argumentsStart...]) else { return .incomplete }
    guard let afterSuffix = end(of: ToolCallFormat.text(format.suffix, call: index), in: text, at: argumentsEnd) else {
      return .malformed
    }
    guard let rest = afterSuffix else { return .incomplete }
    return .call(name: name, arguments: String(text[argumentsStart..<argumentsEnd]), rest: rest)
  }

  /// What a marked call's name is, read so far.
  enum CallName {
    case incomplete
    case malformed
    /// The whole name, and where it ends in the text.
    case name(String, end: String.Index)
  }

  /// The name of the call at the start of `text` in `format`, after the fixed text `prefix`.
  static func name(in text: Substring, after prefix: String, format: ToolCallFormat, index: Int) -> CallName {
    guard let afterPrefix = end(of: prefix, in: text, at: text.startIndex) else { return .malformed }
    guard let nameStart = afterPrefix else { return .incomplete }
    if format.bareNames {
      // The name ends where the arguments' prefix begins, or where there is none, where the
      // first member or the suffix does.
      let argumentsPrefix = ToolCallFormat.text(format.argumentsPrefix, call: index)
      let ends =
        argumentsPrefix.isEmpty
        ? [format.taggedArguments?.keyOpening, ToolCallFormat.text(format.suffix, call: index)].compactMap { $0 }
        : [argumentsPrefix]
      let found = ends.compactMap { text[nameStart...].range(of: $0)?.lowerBound }
      guard let end = found.min() else { return .incomplete }
      return .name(String(text[nameStart..<end]), end: end)
    }
    guard let first = text.utf8[nameStart...].first else { return .incomplete }
    guard first == UInt8(ascii: "\""), let end = endOfString(in: text[nameStart...]) else {
      return first == UInt8(ascii: "\"") ? .incomplete : .malformed
    }
    guard case .string(let decoded)? = (try? GeneratedContent(json: String(text[nameStart..<end])))?.kind else {
      return .malformed
    }
    return .name(decoded, end: end)
  }

  /// Where the fixed text `expected` ends when read in `text` from `start`: nil where the text
  /// differs, .some(nil) while the text is a beginning of it.
  private static func end(of expected: String, in text: Substring, at start: String.Index) -> String.Index?? {
    let rest = text.utf8[start...]
    if rest.starts(with: expected.utf8) { return text.utf8.index(start, offsetBy: expected.utf8.count) }
    return expected.utf8.starts(with: rest) ? .some(nil) : nil
  }

  /// The rest of a call whose arguments are tagged members, from `start`: its members up to
  /// the suffix, as a JSON object (raw text members as strings).
  private static func taggedCall(
    in text: Substring, from start: String.Index, name: String, tagged: ToolCallFormat.TaggedArguments, suffix: String,
    textMembers: Set<String>
  ) -> MarkedCall {
    var members: [String] = []
    var position = start
    while true {
      let keyStart: String.Index
      let opening = (members.isEmpty ? "" : tagged.memberSeparator) + tagged.keyOpening
      switch (end(of: suffix, in: text, at: position), end(of: opening, in: text, at: position)) {
      case (let afterSuffix??, _):
        return .call(name: name, arguments: "{" + members.joined(separator: ",") + "}", rest: afterSuffix)
      case (.some(nil), _), (_, .some(nil)): return .incomplete
      case (nil, let start??): keyStart = start
      case (nil, nil): return .malformed
      }
      let keyEnds = [tagged.keyClosing, tagged.jsonKeyClosing].compactMap { $0 }.compactMap {
        text[keyStart...].range(of: $0)
      }
      guard let keyEnd = keyEnds.min(by: { $0.lowerBound < $1.lowerBound }) else { return .incomplete }
      let key = String(text[keyStart..<keyEnd.lowerBound])
      let valueStart = keyEnd.upperBound
      let json = !textMembers.contains(key)
      // A JSON object, array or string ends with its JSON (a closing tag may be inside it).
      var searchFrom = valueStart
      var whole = false
      if json, let first = text.utf8[valueStart...].first,
        [UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\"")].contains(first)
      {
        guard
          let end = first == UInt8(ascii: "\"")
            ? endOfString(in: text[valueStart...]) : endOfObject(in: text[valueStart...])
        else { return .incomplete }
        searchFrom = end
        whole = true
      }
      let closing = tagged.valueClosing(json: json)
      let value: String
      if closing.isEmpty {
        // Nothing closes the value: a number or a literal runs up to the next member or the end.
        if !whole {
          let ends = [tagged.memberSeparator, suffix].filter { !$0.isEmpty }.compactMap {
            text[valueStart...].range(of: $0)?.lowerBound
          }
          guard let end = ends.min() else { return .incomplete }
          searchFrom = end
        }
        value = String(text[valueStart..<searchFrom])
        position = searchFrom
      } else {
        let valueEnd = tagged.valueEnd(json: json)
        guard let found = text[searchFrom...].range(of: valueEnd) else { return .incomplete }
        value = String(text[valueStart..<found.lowerBound])
        let restOfClosing = String(closing.dropFirst(valueEnd.count))
        guard let afterClosing = end(of: restOfClosing, in: text, at: found.upperBound) else { return .malformed }
        guard let afterClosing else { return .incomplete }
        position = afterClosing
      }
      let encodedKey = GeneratedContent(kind: .string(key)).jsonString
      var raw = value
      if tagged.cdata, raw.hasPrefix("<![CDATA["), raw.hasSuffix("]]>") {
        raw = String(raw.dropFirst("<![CDATA[".count).dropLast("]]>".count))
      }
      members.append(encodedKey + ":" + (json ? value : GeneratedContent(kind: .string(raw)).jsonString))
    }
  }

  /// The end of the JSON string at the start of `text`, its opening quote, (just past its closing
  /// quote), or nil while it is not whole.
  private static func endOfString(in text: Substring) -> String.Index? {
    var escaped = false
    for index in text.utf8.indices.dropFirst() {
      let byte = text.utf8[index]
      if escaped {
        escaped = false
      } else if byte == UInt8(ascii: "\\") {
        escaped = true
      } else if byte == UInt8(ascii: "\"") {
        return text.utf8.index(after: index)
      }
    }
    return nil
  }

  /// The call in `body`: `{"name": "…", "arguments": {…}}`, with white space around it.
  private static func call(in body: String) -> Piece {
    let json = body.trimmingCharacters(in: .whitespacesAndNewlines)
    // A call in an array (`[{"name": …}]`, Mistral's) is its one element.
    var content = try? GeneratedContent(json: json)
    if case .array(let elements)? = content?.kind, elements.count == 1 { content = elements[0] }
    guard let content, case .structure(let properties, _) = content.kind,
      case .string(let name)? = properties["name"]?.kind,
      let arguments = properties["arguments"] ?? properties["parameters"]
    else {
      // Not reachable through the constraint; passed on so the session reports it.
      return .call(name: "", arguments: json)
    }
    return .call(name: name, arguments: arguments.jsonString)
  }
}

/// The output ended inside a tool call.
struct ToolCallSplitError: Error, CustomStringConvertible {
  let partialCall: String
  var description: String { "The response ended inside a tool call: \(partialCall)" }
}
