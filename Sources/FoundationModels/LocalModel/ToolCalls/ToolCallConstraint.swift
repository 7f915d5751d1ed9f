import GuidedDecoding
import InferenceEngine

/// Constrains a turn in which the model may call tools (`ToolCallFormat`): free text — or, for a
/// structured request, the answer's JSON — until the model writes the call marker; from there
/// the call is generated under constraint: the name is one of the enabled tools and the
/// arguments are JSON of that tool's schema, every guide enforced as in guided generation, with
/// the fixed text in between forced.
///
/// After a call come only another call or the end of the turn; the line break that separates two
/// calls leaves that choice open until the next marker, so a model that writes a line break after
/// its call is not made to call again. A call that breaks its tool's schema cannot be produced.
///
/// A turn that opens its first call in the model's own form (`CallOpening`) goes on in it: the
/// call ends at its object's closing brace, and after it come only the next call in that form
/// (`CallOpening.afterCall()`) or the end of the turn.
///
/// `toolCallingMode`: `.required` forces the marker first, `.disallowed` bans every token that
/// would complete it, `.allowed` (the default) leaves the choice to the model.
final class ToolCallConstraint: InferenceEngine.TokenConstraint, @unchecked Sendable {
  // Used by one generation on the engine's work queue only.
  enum Mode { case allowed, required, disallowed }

  struct ToolSchema {
    let name: String
    let parameters: GenerationSchema
  }

  private enum Phase {
    /// Free text, `state` bytes of the marker matched at its end.
    case free(state: Int)
    /// The structured answer, under `answer`.
    case answer
    /// Fixed text, forced; then `next`.
    case literal([Token], then: Next)
    /// The tool's name, a JSON string; its bytes so far.
    case name(any InferenceEngine.TokenConstraint, bytes: [UInt8])
    /// The tool's name written bare (Mistral v7's); its bytes so far.
    case bareName([UInt8])
    /// The arguments of the tool `index`.
    case arguments(any InferenceEngine.TokenConstraint)
    /// After a call, `bytes` written: the next call (its separator and opening), the calls'
    /// closing, or, where there is none, the end of the turn.
    case between([UInt8])
    /// After a call in the model's own form: the next one's opening, or the end of the turn.
    case betweenOwnCalls(CallOpening)
    /// After the one call a turn may have: only the end of the turn.
    case ended
  }

  private enum Next { case name, arguments(Int), between, betweenOwnCalls, closing, ended }

  private let model: any TokenModel
  /// Where the arguments' and the names' automata come from.
  private let automata: SchemaAutomata
  /// Whether JSON arguments have a space after each `:` and `,`, as the template renders them
  /// (`ChatTemplate.spacesCallArguments`).
  private let spacesArguments: Bool
  /// The schema of the tools' names, compiled on first use.
  private var namesSchema: CompiledSchema?
  private let vocabulary: Vocabulary
  private let tools: [ToolSchema]
  /// Each tool's name as the name phase writes it: a JSON string, or bare (`bareNames`).
  private let encodedNames: [[UInt8]]
  /// Whether names are written bare, between the marker and Mistral v7's `[ARGS]`.
  private let bareNames: Bool
  private let mode: Mode
  private let answer: SchemaConstraint?
  private let scanner: MarkerScanner
  private var phase: Phase
  /// How the turn may open its first call in the model's own form (`CallOpening`): at the start
  /// of any line of free text where calls are allowed, in a turn's first round (a structured
  /// answer starts with JSON of its own); nil elsewhere.
  ///
  /// `ToolCallTextSplitter` reads the output with the same.
  let ownFormOpening: CallOpening?
  /// While the turn's text may still open a call in the model's own form; nil once a call is
  /// open, or where calls do not open so.
  private var opening: CallOpening?
  /// Per state of `opening`, the tokens that would open a call from it.
  private var openingTokens: [CallOpening: OpeningTokens] = [:]
  /// Per bare name written so far, the tokens that may follow it (`bareNameTokens(after:)`).
  private var bareNameTokens: [[UInt8]: [Int]] = [:]
  /// Per state between calls in the model's own form, the tokens allowed from it.
  private var tokensBetweenOwnCalls: [CallOpening: [Int]] = [:]
  /// Whether the turn's calls are in the model's own form: its first opened so.
  private var ownFormCalls = false
  private let argumentsPrefixBytes: [UInt8]
  private let format: ToolCallFormat
  /// Whether the turn ends after its first call.
  private let oneCall: Bool
  /// The calls whose arguments are whole: the index of the call under way.
  private var callCount = 0
  private let markerTokens: [Token]
  private let closingTokens: [Token]
  /// Tokenizes the format's fixed texts, and reads the choice after a call byte by byte (`between`).
  private let fixed: FixedTextTokens
  /// What ends a call in the model's own form: its object's closing brace.
  private let objectClosingTokens: [Token]
  /// The marker, where it is one control token (Mistral's `[TOOL_CALLS]`), else empty: such a
  /// token's text is no piece of the output, so the scanner cannot find it.
  private let controlMarker: [Int]

  /// - Parameters:
  ///   - tools: the enabled tools (at least one).
  ///   - answer: the constraint of a structured answer, or nil for free text.
  ///   - ownForm: whether a call may open in the model's own form (`CallOpening`): in a turn's
  ///     first round only. After the tools' outputs the model has seen its calls in the
  ///     `<tool_call>` block, and a JSON object it writes then restates a call it made
  ///     (Qwen2.5-Coder wrote its fenced call again, round after round, until the loop guard
  ///     ended the turn); a further call opens with the marker.
  ///   - format: how calls are written (`ToolCallFormat.of(_:)` for the template's syntax).
  ///   - oneCall: at most one call in the turn (a server's `parallel_tool_calls: false`): after
  ///     it, only the calls' closing and the end of the turn.
  init(
    tools: [ToolSchema], mode: Mode, answer: SchemaConstraint?, ownForm: Bool, automata: SchemaAutomata,
    model: any TokenModel, format: ToolCallFormat = .hermes, oneCall: Bool = false, spacesArguments: Bool = false
  ) {
    self.oneCall = oneCall
    self.spacesArguments = spacesArguments
    precondition(!tools.isEmpty, "a tool-call constraint needs tools")
    self.model = model
    self.automata = automata
    self.tools = tools
    let bare = format.bareNames
    bareNames = bare
    self.format = format
    encodedNames = tools.map { bare ? Array($0.name.utf8) : ToolCallFormat.encodedName($0.name) }
    self.mode = mode
    self.answer = answer
    vocabulary = GuidedVocabularyCache.vocabulary(for: model)
    scanner = MarkerScanner.shared(marker: format.marker, vocabulary: vocabulary)
    markerTokens = model.tokenize(format.marker, parseSpecial: true)
    argumentsPrefixBytes = Array(format.argumentsPrefix.utf8)
    fixed = FixedTextTokens(model: model, texts: format.markers)
    closingTokens = model.tokenize(format.closing, parseSpecial: true)
    controlMarker =
      markerTokens.count == 1 && model.piece(of: markerTokens[0]).isEmpty ? [Int(markerTokens[0])] : []
    objectClosingTokens = model.tokenize("}", parseSpecial: false)
    phase = .free(state: 0)
    ownFormOpening =
      ownForm && mode == .allowed && answer == nil ? CallOpening(toolNames: tools.map(\.name), everyLine: true) : nil
    opening = ownFormOpening
    if mode == .required { phase = .literal(markerTokens + namePrefixTokens, then: .name) }
  }

  /// The tokens of the format's fixed text `text` for the call under way.
  private func tokens(_ text: String) -> [Token] { fixed.tokens(ToolCallFormat.text(text, call: callCount)) }

  private var namePrefixTokens: [Token] { tokens(format.namePrefix) }
  private var argumentsPrefixTokens: [Token] { tokens(format.argumentsPrefix) }
  /// After the arguments; where they are tagged members, their constraint writes it.
  private var suffixTokens: [Token] { format.taggedArguments == nil ? tokens(format.suffix) : [] }
  /// After a call, with `bytes` written: what the next call's opening and the closing have left.
  private func afterCall(_ bytes: [UInt8]) -> (next: [UInt8]?, closing: [UInt8]?, orTheEnd: Bool) {
    let next = Array(format.nextCallOpening(call: callCount).utf8)
    let closing = Array(format.closing.utf8)
    return (
      next.starts(with: bytes) ? Array(next[bytes.count...]) : nil,
      !closing.isEmpty && closing.starts(with: bytes) ? Array(closing[bytes.count...]) : nil,
      closing.isEmpty && bytes.allSatisfy { $0 == 0x20 || $0 == 0x0A }
    )
  }

  /// The tokens that complete a tool's name from `opening`'s state, and so open a call.
  struct OpeningTokens {
    /// Those that write, past the name, nothing or the start of the call's fixed text that
    /// follows it (`, "arguments": `).
    var opening: [Int] = []
    /// Those that write anything else past the name: banned, so that the call goes on in the
    /// one format.
    var overshooting: [Int] = []
  }

  private func openingTokens(from opening: CallOpening) -> OpeningTokens {
    if let known = openingTokens[opening] { return known }
    var found = OpeningTokens()
    let fewest = opening.fewestBytesToOpen
    for (id, piece) in vocabulary.tokens.enumerated() where !piece.isEmpty && piece.count >= fewest {
      var copy = opening
      guard case .opened(_, let overshoot) = copy.feed(piece) else { continue }
      if continuesTheCall(overshoot) { found.opening.append(id) } else { found.overshooting.append(id) }
    }
    openingTokens[opening] = found
    return found
  }

  /// The tokens that `opening`, between calls in the model's own form, lets follow: those that
  /// keep it undecided and those that open the next call (`OpeningTokens.opening`).
  private func tokensBetweenOwnCalls(from opening: CallOpening) -> [Int] {
    if let known = tokensBetweenOwnCalls[opening] { return known }
    var found: [Int] = []
    for (id, piece) in vocabulary.tokens.enumerated() where !piece.isEmpty {
      var copy = opening
      switch copy.feed(piece) {
      case .undecided: found.append(id)
      case .opened(_, let overshoot) where continuesTheCall(overshoot): found.append(id)
      case .opened, .text: continue
      }
    }
    tokensBetweenOwnCalls[opening] = found
    return found
  }

  /// Whether `overshoot`, written past a name that opened a call, is the start of the fixed
  /// text that follows the name.
  private func continuesTheCall(_ overshoot: [UInt8]) -> Bool {
    overshoot.count <= argumentsPrefixBytes.count && argumentsPrefixBytes.starts(with: overshoot)
  }

  func forcedTokens() -> [Token] {
    switch phase {
    case .literal(let tokens, _): tokens
    case .name(let inner, _), .arguments(let inner): inner.forcedTokens()
    case .bareName: []
    case .answer: answer?.forcedTokens() ?? []
    case .free(let state) where answer != nil && state > 0:
      // A structured answer cannot contain the marker's text: once begun, the marker is forced.
      model.tokenize(String(decoding: scanner.marker[state...], as: UTF8.self), parseSpecial: true)
    case .between(let bytes):
      // Once only one way on is left, its text.
      switch afterCall(bytes) {
      case (let next?, nil, false) where !bytes.isEmpty: fixed.tokens(next)
      case (nil, let closing?, false) where !bytes.isEmpty: fixed.tokens(closing)
      default: []
      }
    case .free, .betweenOwnCalls, .ended: []
    }
  }

  func mask(_ logits: UnsafeMutableBufferPointer<Float>) {
    switch phase {
    case .free(let state):
      if let answer {
        // The answer's first token, or the start of a call.
        let starts =
          mode == .disallowed ? [] : Array(scanner.prefixTokens.filter { $0 < logits.count }) + controlMarker

        let kept = starts.map { logits[$0] }
        answer.mask(logits)
        for (token, logit) in zip(starts, kept) { logits[token] = logit }
        return
      }
      let completions = scanner.completions(from: state)
      for token in completions.overshooting where token < logits.count { logits[token] = -.infinity }
      if let opening {
        for token in openingTokens(from: opening).overshooting where token < logits.count { logits[token] = -.infinity }
      }
      if mode == .disallowed {
        for token in completions.exact + controlMarker where token < logits.count { logits[token] = -.infinity }
      }
    case .answer:
      answer?.mask(logits)
    case .name(let inner, _), .arguments(let inner):
      inner.mask(logits)
    case .bareName(let bytes):
      var allowed = bareNameTokens(after: bytes)
      if let arguments = try? arguments(rightAfter: bytes) {
        // What the arguments may begin with: their constraint's mask, taken on a copy.
        var scratch = [Float](repeating: 0, count: logits.count)
        scratch.withUnsafeMutableBufferPointer { arguments.mask($0) }
        allowed += scratch.indices.filter { scratch[$0] > -.infinity }
      }
      keepOnly(allowed, in: logits)
    case .between(let bytes):
      let (next, closing, orTheEnd) = afterCall(bytes)
      fixed.keepOnly(fixed.allowed(continuing: [next, closing].compactMap { $0 }), orTheEnd: orTheEnd, in: logits)
    case .betweenOwnCalls(let opening):
      keepOnly(tokensBetweenOwnCalls(from: opening), orTheEndIn: logits)
    case .ended:
      keepOnly([], orTheEndIn: logits)
    case .literal(let tokens, _):
      for index in 0..<logits.count where index != Int(tokens[0]) { logits[index] = -.infinity }
    }
  }

  /// Bans every token but `token` and the end of the turn.
  private func keepOnly(_ token: Token, orTheEndIn logits: UnsafeMutableBufferPointer<Float>) {
    keepOnly([Int(token)], orTheEndIn: logits)
  }

  /// Bans every token but `tokens` and the end of the turn.
  private func keepOnly(_ tokens: [Int], orTheEndIn logits: UnsafeMutableBufferPointer<Float>) {
    keepOnly(tokens + vocabulary.endOfSequenceTokens, in: logits)
  }

  /// Bans every token but `allowed`.
  private func keepOnly(_ allowed: [Int], in logits: UnsafeMutableBufferPointer<Float>) {
    var kept: [(Int, Float)] = []
    for index in allowed where index < logits.count { kept.append((index, logits[index])) }
    for index in 0..<logits.count { logits[index] = -.infinity }
    for (index, logit) in kept { logits[index] = logit }
  }

  /// Near the budget's end, no call is begun that could not be finished: the shortest call
  /// (its marker, a tool's name and that tool's shortest arguments) must fit what is left.
  func maskUnclosable(_ logits: UnsafeMutableBufferPointer<Float>, budget: Int) {
    switch phase {
    case .free(let state) where mode != .disallowed:
      guard markerTokens.count + namePrefixTokens.count + shortestCall(after: []).count + closingTokens.count > budget
      else { return }
      var starts = answer != nil ? Array(scanner.prefixTokens) : scanner.completions(from: state).exact
      if let opening { starts += openingTokens(from: opening).opening }
      for token in starts where token < logits.count { logits[token] = -.infinity }
    case .between(let bytes):
      let (next, closing, orTheEnd) = afterCall(bytes)
      guard let next, fixed.tokens(next).count + shortestCall(after: []).count + closingTokens.count > budget
      else { return }
      // No call is begun that could not be finished: only the closing, or the end.
      fixed.keepOnly(fixed.allowed(continuing: closing.map { [$0] } ?? []), orTheEnd: orTheEnd, in: logits)
    case .betweenOwnCalls:
      guard namePrefixTokens.count + shortestCall(after: []).count > budget else { return }
      keepOnly([], orTheEndIn: logits)
    default:
      return
    }
  }

  func accept(_ token: Token) throws {
    switch phase {
    case .free(let state):
      if controlMarker.first == Int(token) {
        // The marker as one control token, whose text is no piece the scanner could read.
        guard mode != .disallowed else { throw ToolCallConstraintError("token \(token) would start a tool call here") }
        opening = nil
        phase = try literal(Array(markerTokens.dropFirst()) + namePrefixTokens, then: .name)
        return
      }
      if answer != nil {
        if state == 0, !scanner.prefixTokens.contains(Int(token)) || mode == .disallowed {
          try answer?.accept(token)
          phase = .answer
          return
        }
      }
      if var opened = opening {
        switch opened.feed(model.piece(of: token)) {
        case .undecided:
          opening = opened
        case .text:
          opening = nil
        case .opened(let tool, let overshoot):
          opening = nil
          ownFormCalls = true
          phase = try openedInOwnForm(tool, overshoot: overshoot, by: token)
          return
        }
      }
      // A marker that begins with a control token (harmony's `<|channel|>commentary to=…`) is
      // read with that token's text.
      let piece = fixed.text(of: token)
      let (next, completedAt) = scanner.advance(state, over: piece)
      guard let completedAt else {
        phase = .free(state: next)
        return
      }
      guard mode != .disallowed, completedAt == piece.count else {
        throw ToolCallConstraintError("token \(token) would start a tool call here")
      }
      phase = try literal(namePrefixTokens, then: .name)
    case .answer:
      try answer?.accept(token)
    case .literal(let tokens, let next):
      guard token == tokens[0] else { throw ToolCallConstraintError("token \(token) is not the call's fixed text") }
      phase = tokens.count > 1 ? .literal(Array(tokens.dropFirst()), then: next) : try enter(next)
    case .name(let inner, let bytes):
      try inner.accept(token)
      let name = bytes + model.piece(of: token)
      guard inner.mustEnd else {
        phase = .name(inner, bytes: name)
        return
      }
      guard let index = encodedNames.firstIndex(of: name) else {
        throw ToolCallConstraintError("no tool named \(String(decoding: name, as: UTF8.self))")
      }
      phase = .literal(argumentsPrefixTokens, then: .arguments(index))
    case .bareName(let bytes):
      if let index = encodedNames.firstIndex(of: bytes), token == argumentsPrefixTokens.first {
        phase = try literal(Array(argumentsPrefixTokens.dropFirst()), then: .arguments(index))
        return
      }
      let name = bytes + model.piece(of: token)
      if !name.isEmpty, encodedNames.contains(where: { $0.starts(with: name) }) {
        phase = .bareName(name)
      } else if let arguments = try arguments(rightAfter: bytes) {
        argumentsAfterBareName = nil
        try arguments.accept(token)
        phase = arguments.mustEnd ? afterArguments() : .arguments(arguments)
      } else {
        throw ToolCallConstraintError("no tool's name begins \(String(decoding: name, as: UTF8.self))")
      }
    case .arguments(let inner):
      try inner.accept(token)
      if inner.mustEnd { phase = afterArguments() }
    case .between(let bytes):
      if model.isEndOfGeneration(token), afterCall(bytes).orTheEnd { return }
      let written = bytes + fixed.text(of: token)
      let (next, closing, _) = afterCall(written)
      if next?.isEmpty == true {
        phase = try enter(.name)
      } else if closing?.isEmpty == true {
        phase = .ended
      } else if next != nil || closing != nil {
        phase = .between(written)
      } else {
        throw ToolCallConstraintError("only another call or the calls' closing may follow a call")
      }
    case .ended:
      guard model.isEndOfGeneration(token) else { throw ToolCallConstraintError("the turn ends after its call") }
    case .betweenOwnCalls(var opening):
      if model.isEndOfGeneration(token) { return }
      switch opening.feed(model.piece(of: token)) {
      case .undecided: phase = .betweenOwnCalls(opening)
      case .opened(let tool, let overshoot): phase = try openedInOwnForm(tool, overshoot: overshoot, by: token)
      case .text: throw ToolCallConstraintError("only another call may follow a call")
      }
    }
  }

  /// The phase after `token` opened a call of the tool `tool` in the model's own form, having
  /// written `overshoot` past its name: the rest of the call's fixed text, forced from there.
  private func openedInOwnForm(_ tool: Int, overshoot: [UInt8], by token: Token) throws -> Phase {
    guard continuesTheCall(overshoot) else {
      throw ToolCallConstraintError("token \(token) writes past the name of the call it opens")
    }
    let rest = String(decoding: argumentsPrefixBytes[overshoot.count...], as: UTF8.self)
    return rest.isEmpty
      ? try enter(.arguments(tool))
      : .literal(model.tokenize(rest, parseSpecial: false), then: .arguments(tool))
  }

  /// The phase once a call's arguments are whole: the end of the call.
  private func afterArguments() -> Phase {
    let end = callEndTokens
    callCount += 1
    let next: Next = format.singleCall || oneCall ? .closing : ownFormCalls ? .betweenOwnCalls : .between
    // Entering what follows a call cannot fail (only a name's or arguments' phase can).
    return (try? literal(end, then: next)) ?? .between([])
  }

  /// Fixed text, then `next`; `next` at once where there is none.
  private func literal(_ tokens: [Token], then next: Next) throws -> Phase {
    tokens.isEmpty ? try enter(next) : .literal(tokens, then: next)
  }

  /// The tokens that go on with a bare name written so far as `bytes`: those that keep it the
  /// start of a tool's name, and the arguments' marker where it is a whole name.
  private func bareNameTokens(after bytes: [UInt8]) -> [Int] {
    if let known = bareNameTokens[bytes] { return known }
    var allowed: [Int] = []
    for (id, piece) in vocabulary.tokens.enumerated() where !piece.isEmpty {
      let name = bytes + piece
      if encodedNames.contains(where: { $0.starts(with: name) }) { allowed.append(id) }
    }
    if encodedNames.contains(bytes), let first = argumentsPrefixTokens.first { allowed.append(Int(first)) }
    bareNameTokens[bytes] = allowed
    return allowed
  }

  /// The phase that `next` names.
  private func enter(_ next: Next) throws -> Phase {
    switch next {
    case .name where bareNames:
      return .bareName([])
    case .name:
      let names =
        try namesSchema
        ?? CompiledSchema(SchemaDocument(root: .anyOf(tools.map { .const(.string($0.name)) })))
      namesSchema = names
      return .name(SchemaConstraint(schema: names, automata: automata, model: model), bytes: [])
    case .arguments(let index):
      return .arguments(try argumentsConstraint(of: index))
    case .between:
      return .between([])
    case .closing:
      return try literal(closingTokens, then: .ended)
    case .betweenOwnCalls:
      return ownFormOpening.map { .betweenOwnCalls($0.afterCall()) } ?? .between([])
    case .ended:
      return .ended
    }
  }

  var isComplete: Bool {
    switch phase {
    case .free: answer == nil
    case .answer: answer?.isComplete ?? true
    case .between(let bytes): afterCall(bytes).orTheEnd
    case .betweenOwnCalls, .ended: true
    case .literal, .name, .bareName, .arguments: false
    }
  }

  var mustEnd: Bool {
    switch phase {
    case .answer: answer?.mustEnd ?? false
    case .ended: true
    default: false
    }
  }

  /// The tokens that end the call under way soonest: the rest of its fixed text, the shortest
  /// name and the shortest arguments its schema allows.
  func tokensToClose() -> [Token] {
    switch phase {
    case .free, .betweenOwnCalls, .ended: []
    case .between(let bytes):
      switch afterCall(bytes) {
      case (_, let closing?, _): fixed.tokens(closing)
      case (let next?, nil, _): fixed.tokens(next) + shortestCall(after: []) + closingTokens
      case (nil, nil, _): []
      }
    case .answer: answer?.tokensToClose() ?? []
    case .literal(let tokens, .name): tokens + shortestCall(after: []) + closingAfterCalls
    case .literal(let tokens, .arguments(let index)):
      tokens + shortestArguments(of: index) + callEndTokens + closingAfterCalls
    case .literal(let tokens, .between), .literal(let tokens, .closing): tokens + closingTokens
    case .literal(let tokens, .betweenOwnCalls), .literal(let tokens, .ended):
      tokens
    case .name(_, let bytes), .bareName(let bytes):
      shortestCall(after: bytes) + closingAfterCalls
    case .arguments(let inner): inner.tokensToClose() + callEndTokens + closingAfterCalls
    }
  }

  /// What ends the call under way once its arguments are whole.
  private var callEndTokens: [Token] { ownFormCalls ? objectClosingTokens : suffixTokens }
  /// What closes the turn's calls after the one under way.
  private var closingAfterCalls: [Token] { ownFormCalls ? [] : closingTokens }

  /// Where no fixed text comes between a bare name and the arguments (GLM 4.7's), the
  /// constraint to the arguments of the tool whose whole name is `bytes`, which the next token
  /// may begin; made once per name written.
  private var argumentsAfterBareName: (name: [UInt8], constraint: any InferenceEngine.TokenConstraint)?

  private func arguments(rightAfter bytes: [UInt8]) throws -> (any InferenceEngine.TokenConstraint)? {
    guard argumentsPrefixBytes.isEmpty, let index = encodedNames.firstIndex(of: bytes) else { return nil }
    if let made = argumentsAfterBareName, made.name == bytes { return made.constraint }
    let constraint = try argumentsConstraint(of: index)
    argumentsAfterBareName = (bytes, constraint)
    return constraint
  }

  /// A constraint to the arguments of the tool `index`.
  /// - Throws: `LanguageModelError.unsupportedGenerationGuide` when its schema cannot be enforced.
  private func argumentsConstraint(of index: Int) throws -> any InferenceEngine.TokenConstraint {
    guard let tagged = format.taggedArguments else {
      return SchemaConstraint(
        schema: try tools[index].parameters.lowered.compiledSchema(spacesSeparators: spacesArguments),
        automata: automata,
        model: model)
    }
    return TaggedArgumentsConstraint(
      members: try TaggedArgumentsConstraint.members(of: tools[index].parameters, rawStrings: tagged.rawStrings),
      syntax: tagged,
      suffix: ToolCallFormat.text(format.suffix, call: callCount), automata: automata, model: model)
  }

  /// Per tool, the tokens of its shortest arguments; filled on first use.
  private var shortestArgumentTokens: [Int: [Token]] = [:]

  private func shortestArguments(of index: Int) -> [Token] {
    if let known = shortestArgumentTokens[index] { return known }
    let tokens = (try? argumentsConstraint(of: index))?.tokensToClose() ?? []
    shortestArgumentTokens[index] = tokens
    return tokens
  }

  /// The shortest rest of a call whose name so far is `name`: of the tools whose names it
  /// begins, the one whose name's rest and shortest arguments take the fewest tokens.
  private func shortestCall(after name: [UInt8]) -> [Token] {
    let calls = tools.indices.filter { encodedNames[$0].starts(with: name) }.map { index in
      nameRest(String(decoding: encodedNames[index][name.count...], as: UTF8.self)) + argumentsPrefixTokens
        + shortestArguments(of: index) + suffixTokens
    }
    return calls.min { $0.count < $1.count } ?? []
  }

  /// The tokens of the rest of tools' names, as ``shortestCall(after:)`` asks at every step.
  private var nameRests: [String: [Token]] = [:]

  private func nameRest(_ rest: String) -> [Token] {
    if let known = nameRests[rest] { return known }
    let tokens = rest.isEmpty ? [] : model.tokenize(rest, parseSpecial: false)
    nameRests[rest] = tokens
    return tokens
  }

  func extensions(of token: Token) -> [Token] {
    switch phase {
    case .answer: answer?.extensions(of: token) ?? []
    case .arguments(let inner): inner.extensions(of: token)
    default: []
    }
  }

  func acceptExtension(of token: Token, by longer: Token) throws {
    switch phase {
    case .answer: try answer?.acceptExtension(of: token, by: longer)
    case .arguments(let inner):
      try inner.acceptExtension(of: token, by: longer)
      if inner.mustEnd { phase = afterArguments() }
    default: throw ToolCallConstraintError("token \(longer) does not extend token \(token) here")
    }
  }
}

/// A token the tool-call constraint does not allow (a bug in its mask, or a forced-token mismatch).
struct ToolCallConstraintError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
