/// Recognises, at the start of a turn or of any of its lines (`everyLine`), a call that the
/// model writes in a form of its own instead of with the `<tool_call>` marker.
///
/// Qwen2.5-Coder, told of its tools, writes most of its calls as a bare JSON object, mostly in a
/// fenced code block, some after `<tools>`, and some after a sentence ("To convert 75.5 EUR to CHF,
/// you would use the `convertCurrency` function with the following arguments:"):
///
///     [ "<tools>" | "```" ["json"] ] ws "{" ["{"] ws "\"name\"" ws ":" ws NAME
///
/// (the second brace: Qwen2.5's template shows its example call as `{{"name": …}}`, and the
/// model, told its tools that way, writes its call with the doubled braces too)
/// where `ws` is any run of spaces and line breaks and NAME one of the enabled tools' names as a
/// JSON string. The call is open once the name is whole and names a tool: until then nothing is
/// decided, so an answer that merely starts the same way (`{"name": "Ada", …}`, a JSON example
/// the user asked for) stays text, and a line that opens no call is text once that is known.
/// From there `ToolCallConstraint` writes the rest of the call in the one format
/// (`ToolCallFormat`), under the tool's schema, up to the object's closing brace.
///
/// After such a call the model writes its next call the same way, or ends its turn: after
/// `<tools>` the next object on its own line, in a fence the next object or a new fence
/// (`afterCall()`):
///
///     ( ws | "```" ["json"] | "<tools>" | "</tools>" )* "{" ws "\"name\"" ws ":" ws NAME
struct CallOpening: Hashable {
  enum Outcome: Equatable {
    /// The text so far may still open a call.
    case undecided
    /// The text is not a call's opening.
    case text
    /// A call to the tool `tool` is open; `overshoot` is what the bytes fed wrote past the
    /// name's closing quote.
    case opened(tool: Int, overshoot: [UInt8])
  }

  private indirect enum Stage: Hashable {
    /// Nothing but white space yet.
    case start
    /// `matched` bytes of `text`; then `next`.
    case fixed(text: [UInt8], matched: Int, next: Stage)
    /// After "```": a language tag (`json`, `matched` bytes of it); then `next`.
    case fenceTag(matched: Int, then: Stage)
    /// After a call: white space, fences and `<tools>` tags, up to the next object.
    case betweenCalls
    /// A tag between calls, its bytes so far.
    case tag([UInt8])
    /// White space; then `next` on its first byte.
    case space(then: Stage)
    /// The object's first byte.
    case brace
    /// After the object's first byte: a second brace, as the template's example doubles it.
    case afterBrace
    /// The `:` after the key.
    case colon
    /// The name's opening quote.
    case value
    /// The name, its bytes so far (from its opening quote).
    case name([UInt8])
    /// A line that opens no call, up to its line break.
    case restOfLine
    case failed
  }

  /// Each tool's name as a JSON string.
  private let names: [[UInt8]]
  private var stage = Stage.start
  /// Whether a line that opens no call leaves the next one free to (a sentence, then the call
  /// in a fence), where otherwise the text is decided to be no call.
  private(set) var everyLine: Bool
  /// The bytes of the current line taken while it may still open a call: where `everyLine`
  /// holds, what a reader must hold back (0 on a line that cannot open one).
  private(set) var heldBytes = 0

  /// - Parameter everyLine: whether a call may open at the start of any line of the text,
  ///   rather than at its start only.
  init(toolNames: [String], everyLine: Bool = false) {
    names = toolNames.map(ToolCallFormat.encodedName)
    self.everyLine = everyLine
  }

  /// The opening of the next call, after a call that opened in the model's own form: right
  /// after it, and nothing else.
  func afterCall() -> CallOpening {
    var next = self
    next.stage = .betweenCalls
    next.everyLine = false
    next.heldBytes = 0
    return next
  }

  // Equal where they decide alike: the bytes held do not count.
  static func == (left: CallOpening, right: CallOpening) -> Bool {
    left.stage == right.stage && left.everyLine == right.everyLine && left.names == right.names
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(stage)
    hasher.combine(everyLine)
  }

  /// Takes `bytes`, the next of the text.
  mutating func feed(_ bytes: some Collection<UInt8>) -> Outcome {
    var index = bytes.startIndex
    while index != bytes.endIndex {
      let byte = bytes[index]
      let lineStarts = stage == .restOfLine
      stage = Self.advance(stage, over: byte, names: names)
      index = bytes.index(after: index)
      if stage == .failed, everyLine { stage = byte == UInt8(ascii: "\n") ? .start : .restOfLine }
      heldBytes = lineStarts || stage == .restOfLine ? 0 : heldBytes + 1
      switch stage {
      case .failed:
        return .text
      case .name(let name):
        if let tool = names.firstIndex(of: name) { return .opened(tool: tool, overshoot: Array(bytes[index...])) }
      default:
        continue
      }
    }
    return .undecided
  }

  /// The fewest bytes that could still open a call: a token shorter than this cannot.
  var fewestBytesToOpen: Int { Self.fewestBytes(after: stage, names: names) }

  private static func fewestBytes(after stage: Stage, names: [[UInt8]]) -> Int {
    let shortestName = names.map(\.count).min() ?? 0
    switch stage {
    case .start, .brace, .betweenCalls: return 1 + key.count + 1 + shortestName
    case .afterBrace: return key.count + 1 + shortestName
    case .fenceTag(_, let next): return fewestBytes(after: next, names: names)
    case .tag: return 1 + fewestBytes(after: .betweenCalls, names: names)
    case .fixed(let text, let matched, let next): return text.count - matched + fewestBytes(after: next, names: names)
    case .space(let next): return fewestBytes(after: next, names: names)
    case .colon: return 1 + shortestName
    case .value: return shortestName
    case .name(let name): return names.filter { $0.starts(with: name) }.map { $0.count - name.count }.min() ?? 0
    case .restOfLine: return 1 + fewestBytes(after: .start, names: names)
    case .failed: return .max
    }
  }

  private static let key = Array("\"name\"".utf8)
  private static let toolsTag = Array("<tools>".utf8)
  private static let tags = [toolsTag, Array("</tools>".utf8)]
  private static let fence = Array("```".utf8)
  private static let json = Array("json".utf8)

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }

  private static func advance(_ stage: Stage, over byte: UInt8, names: [[UInt8]]) -> Stage {
    switch stage {
    case .start:
      if isSpace(byte) { return .start }
      if byte == toolsTag[0] { return .fixed(text: toolsTag, matched: 1, next: .space(then: .brace)) }
      if byte == fence[0] {
        return .fixed(text: fence, matched: 1, next: .fenceTag(matched: 0, then: .space(then: .brace)))
      }
      return advance(.brace, over: byte, names: names)
    case .betweenCalls:
      if isSpace(byte) { return .betweenCalls }
      if byte == fence[0] { return .fixed(text: fence, matched: 1, next: .fenceTag(matched: 0, then: .betweenCalls)) }
      if byte == toolsTag[0] { return .tag([byte]) }
      return advance(.brace, over: byte, names: names)
    case .tag(let bytes):
      let tag = bytes + [byte]
      if tags.contains(tag) { return .betweenCalls }
      return tags.contains { $0.starts(with: tag) } ? .tag(tag) : .failed
    case .fixed(let text, let matched, let next):
      guard text[matched] == byte else { return .failed }
      return matched + 1 == text.count ? next : .fixed(text: text, matched: matched + 1, next: next)
    case .fenceTag(let matched, let next):
      if matched < json.count, json[matched] == byte { return .fenceTag(matched: matched + 1, then: next) }
      guard matched == 0 || matched == json.count else { return .failed }
      return advance(next, over: byte, names: names)
    case .space(let next):
      return isSpace(byte) ? stage : advance(next, over: byte, names: names)
    case .brace:
      return byte == UInt8(ascii: "{") ? .afterBrace : .failed
    case .afterBrace:
      let key = Stage.space(then: .fixed(text: key, matched: 0, next: .colon))
      return byte == UInt8(ascii: "{") ? key : advance(key, over: byte, names: names)
    case .colon:
      if isSpace(byte) { return .colon }
      return byte == UInt8(ascii: ":") ? .space(then: .value) : .failed
    case .value:
      return byte == UInt8(ascii: "\"") ? .name([byte]) : .failed
    case .name(let name):
      let goesOn = names.contains { $0.count > name.count && $0[name.count] == byte && $0.starts(with: name) }
      return goesOn ? .name(name + [byte]) : .failed
    case .restOfLine:
      return byte == UInt8(ascii: "\n") ? .start : .restOfLine
    case .failed:
      return .failed
    }
  }
}
