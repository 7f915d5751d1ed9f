import GuidedDecoding
import InferenceEngine

/// Constrains a call's arguments written as tagged members, as Qwen3-Coder's and GLM's
/// templates write them (`ToolCallFormat.TaggedArguments`), up to the end of the call:
///
///     ( keyOpening NAME keyClosing VALUE valueClosing ) ( memberSeparator … )* suffix
///
/// (none at all where the tool takes no members). Where nothing closes a JSON value (Gemma 4's),
/// the next member or the call's end may follow it once it is whole.
///
/// Each member is one of the tool's declared properties, at most once, and the call ends only
/// once every required one is written. A string's value is its raw text, which runs up to the
/// value's closing tag (an enumerated string is one of its values); any other value is JSON of
/// its schema, every guide enforced as in guided generation.
///
/// String guides other than an enumeration (a pattern, a format, a length) cannot be enforced on
/// raw text: such a tool is refused (`LanguageModelError.unsupportedGenerationGuide`).
final class TaggedArgumentsConstraint: InferenceEngine.TokenConstraint, @unchecked Sendable {
  // Used by one generation on the engine's work queue only.
  struct Member {
    enum Value {
      /// Raw text.
      case text
      /// One of these strings.
      case choices([String])
      /// JSON of a schema.
      case json(CompiledSchema)
    }

    let name: String
    let value: Value
    let isRequired: Bool
  }

  /// What comes once a fixed text is written.
  private enum Next: Equatable {
    case choosing
    case value(Int)
    case done
  }

  private enum Phase {
    /// One of `alternatives` (fixed texts), `bytes` of it written.
    case fixed(bytes: [UInt8], alternatives: [(text: [UInt8], then: Next)])
    /// Tokens, forced; then `next`.
    case literal([Token], then: Next)
    /// A raw text value, `state` bytes of its closing tag matched at its end.
    case text(state: Int)
    /// A JSON value.
    case json(SchemaConstraint)
    case done
  }

  private let members: [Member]
  private let syntax: ToolCallFormat.TaggedArguments
  private let suffix: [UInt8]
  private let model: any TokenModel
  private let automata: SchemaAutomata
  private let vocabulary: Vocabulary
  private let fixed: FixedTextTokens
  /// Finds the end of a raw value: its closing tag, white space after it left out (nil where
  /// values are JSON, and nothing closes them).
  private let textEnd: MarkerScanner?
  /// The value's closing tag as `textEnd` finds it, and the rest after it.
  private let textEndTokens: [Token]
  private let textEndRest: [Token]
  /// The value's closing tag where it is one control token (Gemma 4's `<|"|>`), which
  /// `textEnd` cannot see in a piece's text.
  private let textEndControl: Token?
  /// What closes a string's value chosen among its enumerated values (after the value), and a
  /// JSON value: empty where nothing does.
  private let valueClosingTokens: [Token]
  private let jsonClosingTokens: [Token]
  /// Per set of members written, the tokens that begin the next member or the call's end after
  /// a JSON value nothing closes.
  private var followingTokens: (written: Set<Int>, tokens: Set<Int>)?
  /// Per member, the tokens of its shortest value and the value's closing; filled on first use.
  private var shortestValues: [Int: [Token]] = [:]
  private var written = Set<Int>()
  private var phase: Phase = .done
  /// Tokens whose text is empty: never part of a raw value.
  private lazy var textlessTokens: [Int] = vocabulary.tokens.indices.filter { vocabulary.tokens[$0].isEmpty }

  /// - Parameter suffix: what ends the call after its members.
  init(
    members: [Member], syntax: ToolCallFormat.TaggedArguments, suffix: String, automata: SchemaAutomata,
    model: any TokenModel
  ) {
    self.members = members
    self.syntax = syntax
    self.suffix = Array(suffix.utf8)
    self.model = model
    self.automata = automata
    vocabulary = GuidedVocabularyCache.vocabulary(for: model)
    fixed = FixedTextTokens(
      model: model,
      texts: [
        syntax.keyOpening, syntax.keyClosing, syntax.valueClosing, syntax.jsonKeyClosing ?? "",
        syntax.jsonValueClosing ?? "", syntax.memberSeparator, suffix,
      ])
    let end = syntax.valueEnd()
    textEnd = end.isEmpty ? nil : MarkerScanner.shared(marker: end, vocabulary: vocabulary)
    textEndTokens = fixed.tokens(end)
    textEndControl = textEndTokens.count == 1 && model.piece(of: textEndTokens[0]).isEmpty ? textEndTokens[0] : nil
    textEndRest = fixed.tokens(String(syntax.valueClosing.dropFirst(end.count)))
    valueClosingTokens = fixed.tokens(syntax.valueClosing)
    jsonClosingTokens = fixed.tokens(syntax.valueClosing(json: true))
    phase = choosing()
  }

  /// The members of a tool's arguments, from its schema: with `rawStrings`, a string's value is
  /// its raw text (or one of its enumerated values), else every value is JSON.
  /// - Throws: `LanguageModelError.unsupportedGenerationGuide` for a schema that is no object of
  ///   declared properties, or a string guide raw text cannot keep.
  static func members(of schema: GenerationSchema, rawStrings: Bool = true) throws -> [Member] {
    let document = try schema.lowered.document.get()
    func resolved(_ node: SchemaNode) -> SchemaNode {
      if case .ref(let name) = node, let target = document.definitions[name] { return resolved(target) }
      return node
    }
    func refused(_ why: String) -> LanguageModelError {
      .unsupportedGenerationGuide(
        .init(schemaName: nil, debugDescription: "This model's template writes tool arguments as tagged text: \(why)"))
    }
    guard case .object(let object) = resolved(document.root) else {
      throw refused("the arguments must be an object")
    }
    return try object.properties.map { property in
      let node = resolved(property.schema)
      let strings: [String]? =
        switch node {
        case .const(.string(let value)): [value]
        case .anyOf(let options):
          options.allSatisfy { if case .const(.string) = resolved($0) { true } else { false } }
            ? options.compactMap { if case .const(.string(let value)) = resolved($0) { value } else { nil } } : nil
        default: nil
        }
      let value: Member.Value
      if !rawStrings {
        value = .json(try CompiledSchema(SchemaDocument(root: node, definitions: document.definitions)))
      } else if let strings {
        value = .choices(strings)
      } else if case .string(let constraints) = node {
        guard constraints == StringConstraints() else {
          throw refused("the guides of '\(property.name)' (a pattern, format or length) cannot be kept on raw text")
        }
        value = .text
      } else {
        value = .json(try CompiledSchema(SchemaDocument(root: node, definitions: document.definitions)))
      }
      return Member(name: property.name, value: value, isRequired: property.isRequired)
    }
  }

  /// The names of a tool's members whose values are strings, written raw.
  static func textMembers(of schema: GenerationSchema, rawStrings: Bool = true) -> Set<String> {
    let members = (try? members(of: schema, rawStrings: rawStrings)) ?? []
    return Set(members.filter { if case .json = $0.value { false } else { true } }.map(\.name))
  }

  /// A member's opening tag, up to its value.
  private func opening(of member: Member) -> String {
    let json = if case .json = member.value { true } else { false }
    return syntax.keyOpening + member.name + syntax.keyClosing(json: json)
  }

  /// The next member's opening, or, once every required member is written, the end.
  private func choosing() -> Phase { .fixed(bytes: [], alternatives: choices()) }

  private func choices() -> [(text: [UInt8], then: Next)] {
    var alternatives: [(text: [UInt8], then: Next)] = []
    let separator = written.isEmpty ? "" : syntax.memberSeparator
    for (index, member) in members.enumerated() where !written.contains(index) {
      alternatives.append((Array((separator + opening(of: member)).utf8), .value(index)))
    }
    if members.indices.allSatisfy({ written.contains($0) || !members[$0].isRequired }) {
      alternatives.append((suffix, .done))
    }
    return alternatives
  }

  /// The tokens that begin the next member or the call's end, after a JSON value nothing closes.
  private func following() -> Set<Int> {
    if let known = followingTokens, known.written == written { return known.tokens }
    let tokens = Set(fixed.allowed(continuing: choices().map(\.text)))
    followingTokens = (written, tokens)
    return tokens
  }

  private func enter(_ next: Next) throws -> Phase {
    switch next {
    case .choosing: return choosing()
    case .done: return .done
    case .value(let index):
      written.insert(index)
      switch members[index].value {
      case .text: return .text(state: 0)
      case .choices(let choices):
        return .fixed(
          bytes: [], alternatives: choices.map { (Array(($0 + syntax.valueClosing).utf8), Next.choosing) })
      case .json(let schema):
        return .json(SchemaConstraint(schema: schema, automata: automata, model: model))
      }
    }
  }

  /// The alternatives `bytes` is a beginning of, with what each has left.
  private static func remaining(_ alternatives: [(text: [UInt8], then: Next)], after bytes: [UInt8]) -> [[UInt8]] {
    FixedTextTokens.remaining(alternatives.map(\.text), after: bytes)
  }

  func forcedTokens() -> [Token] {
    switch phase {
    case .literal(let tokens, _): tokens
    case .fixed(let bytes, let alternatives):
      Self.remaining(alternatives, after: bytes).count == 1
        ? fixed.tokens(Self.remaining(alternatives, after: bytes)[0]) : []
    case .json(let inner): inner.mustEnd ? jsonClosingTokens : inner.forcedTokens()
    case .text, .done: []
    }
  }

  func mask(_ logits: UnsafeMutableBufferPointer<Float>) {
    switch phase {
    case .fixed(let bytes, let alternatives):
      fixed.keepOnly(fixed.allowed(continuing: Self.remaining(alternatives, after: bytes)), orTheEnd: false, in: logits)
    case .literal(let tokens, _):
      for index in 0..<logits.count where index != Int(tokens[0]) { logits[index] = -.infinity }
    case .text(let state):
      let control = textEndControl.map(Int.init)
      let overshooting = textEnd?.completions(from: state).overshooting ?? []
      for token in overshooting + textlessTokens + vocabulary.endOfSequenceTokens
      where token < logits.count && token != control {
        logits[token] = -.infinity
      }
    case .json(let inner):
      // Once the value is whole, what closes it, or where nothing does, what follows it.
      let next = inner.isComplete ? jsonClosingTokens.first.map { [Int($0)] } ?? Array(following()) : []
      let kept = next.map { $0 < logits.count ? logits[$0] : 0 }
      inner.mask(logits)
      for (token, value) in zip(next, kept) where token < logits.count { logits[token] = value }
    case .done:
      for index in 0..<logits.count { logits[index] = -.infinity }
      for token in vocabulary.endOfSequenceTokens where token < logits.count { logits[token] = 0 }
    }
  }

  func accept(_ token: Token) throws {
    switch phase {
    case .fixed(let bytes, let alternatives):
      let written = bytes + fixed.text(of: token)
      if let whole = alternatives.first(where: { $0.text == written }) {
        phase = try enter(whole.then)
      } else if alternatives.contains(where: { $0.text.starts(with: written) }) {
        phase = .fixed(bytes: written, alternatives: alternatives)
      } else {
        throw ToolCallConstraintError("token \(token) writes no member the tool takes here")
      }
    case .literal(let tokens, let next):
      guard token == tokens[0] else { throw ToolCallConstraintError("token \(token) is not the arguments' fixed text") }
      phase = tokens.count > 1 ? .literal(Array(tokens.dropFirst()), then: next) : try enter(next)
    case .text(let state):
      if token == textEndControl {
        phase = textEndRest.isEmpty ? choosing() : .literal(textEndRest, then: .choosing)
        return
      }
      guard let textEnd else { throw ToolCallConstraintError("a value here is JSON, not raw text") }
      let (next, completedAt) = textEnd.advance(state, over: model.piece(of: token))
      guard let completedAt else {
        phase = .text(state: next)
        return
      }
      guard completedAt == model.piece(of: token).count else {
        throw ToolCallConstraintError("token \(token) writes past a value's closing tag")
      }
      phase = textEndRest.isEmpty ? choosing() : .literal(textEndRest, then: .choosing)
    case .json(let inner):
      if inner.isComplete, let closing = jsonClosingTokens.first, token == closing {
        phase =
          jsonClosingTokens.count > 1 ? .literal(Array(jsonClosingTokens.dropFirst()), then: .choosing) : choosing()
      } else if inner.isComplete, jsonClosingTokens.isEmpty, following().contains(Int(token)) {
        phase = choosing()
        try accept(token)
      } else {
        try inner.accept(token)
        if inner.mustEnd, jsonClosingTokens.isEmpty { phase = choosing() }
      }
    case .done:
      guard model.isEndOfGeneration(token) else { throw ToolCallConstraintError("the call has ended") }
    }
  }

  var isComplete: Bool { if case .done = phase { true } else { false } }
  var mustEnd: Bool { isComplete }

  /// The shortest way to the end of the call: the required members not yet written, each with
  /// its shortest value, then the suffix.
  func tokensToClose() -> [Token] {
    switch phase {
    case .done: return []
    case .fixed(let bytes, let alternatives):
      let left = Self.remaining(alternatives, after: bytes)
      let then = alternatives.first { $0.text.starts(with: bytes) }?.then ?? .choosing
      return fixed.tokens(left.min { $0.count < $1.count } ?? []) + closing(after: then)
    case .literal(let tokens, let then): return tokens + closing(after: then)
    case .text: return textEndTokens + textEndRest + closing(after: .choosing)
    case .json(let inner): return inner.tokensToClose() + jsonClosingTokens + closing(after: .choosing)
    }
  }

  /// What closes the call once `next` is reached.
  private func closing(after next: Next) -> [Token] {
    switch next {
    case .done: return []
    case .value(let index): return shortestValue(of: index) + requiredMembersAndSuffix(besides: index)
    case .choosing: return requiredMembersAndSuffix()
    }
  }

  /// The required members not yet written (besides the one under way), then the suffix.
  private func requiredMembersAndSuffix(besides current: Int? = nil) -> [Token] {
    var tokens: [Token] = []
    var separated = !written.isEmpty || current != nil
    for (index, member) in members.enumerated() where member.isRequired && !written.contains(index) && index != current
    {
      tokens += fixed.tokens((separated ? syntax.memberSeparator : "") + opening(of: member)) + shortestValue(of: index)
      separated = true
    }
    return tokens + fixed.tokens(suffix)
  }

  /// The shortest value of the member `index` and its closing: asked on every token near the
  /// budget's end (`closingTokenBound`), so made once.
  private func shortestValue(of index: Int) -> [Token] {
    if let known = shortestValues[index] { return known }
    let tokens: [Token] =
      switch members[index].value {
      case .text: textEndTokens + textEndRest
      case .choices(let choices):
        model.tokenize(choices.min { $0.utf8.count < $1.utf8.count } ?? "", parseSpecial: false) + valueClosingTokens
      case .json(let schema):
        SchemaConstraint(schema: schema, automata: automata, model: model).tokensToClose() + jsonClosingTokens
      }
    shortestValues[index] = tokens
    return tokens
  }
}
