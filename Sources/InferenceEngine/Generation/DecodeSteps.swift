/// The decode steps of one generation as a state machine: it samples or takes forced tokens
/// and says what to evaluate next, until the turn ends, the budget runs out, or the context is
/// full.
///
/// It never calls a backend.
///
/// A driver performs each `DecodeStep` on the sequence's cache and passes the logits back with
/// `next(after:cancellation:)`. `Generator` drives one sequence on a `TokenBackend`; a batch
/// scheduler can drive many sequences of one context, with every sequence's evaluation in one
/// decode, because each sequence keeps its own steps and its own cache length here.
///
/// What one evaluation may hold, each saving forward passes:
/// - forced text taken without a model call (jump-forward), and after a sampled token in the
///   same batch as it;
/// - a forced token with a second output, the logits before it, from which the model may choose
///   a longer token that begins with its text (boundary healing, see `heal(_:among:logits:)`);
/// - draft tokens after a sampled one, which the model then confirms (see `draft(budget:)`).
struct DecodeSteps {
  let request: GenerationRequest
  let model: any TokenModel
  /// The most tokens the sequence's cache may hold.
  let contextLength: Int
  private(set) var state: DecodeState
  /// The tokens the sequence's cache holds once the last step is performed.
  private(set) var cacheLength = 0
  /// Prompt tokens the cache held already and that were not evaluated again.
  private(set) var cachedPromptTokens = 0
  /// The tokens taken since the last evaluation, to be evaluated next.
  private(set) var batch: [Token] = []
  /// How to read the logits of the evaluation asked for last.
  private var reading = Reading.latest
  /// The prompt parts still to evaluate.
  private var pendingParts: [PromptPart] = []
  /// Text decoded since the last step.
  private var text: [String] = []
  /// Log probabilities of the tokens taken since the last step, and of the prompt's tokens
  /// scored since then (`GenerationRequest.logProbabilities`).
  private var scores: [TokenLogProbability] = []
  private var promptScores: [TokenLogProbability] = []
  /// The most draft tokens the next steps may propose; the driver sets it from its backend
  /// (`TokenBackend.draftTokenLimit`).
  var draftLimit = maximumDrafts
  /// Whether the next decodes hold other sequences' rows too (`TokenBackend.sharesDecodes`):
  /// then only copied spans are drafted. The driver sets it from its backend.
  var sharedDecodes = false
  /// What decodes cost by their rows on the driver's backend (`TokenBackend.decodeCosts`):
  /// drafts are cut to what pays (`DraftPolicy.worthEvaluating`). The driver sets it; without
  /// it drafts are evaluated as the policy proposes them.
  var decodeCosts: DecodeCosts?
  /// How long the next draft may be, and whether to draft at all.
  private(set) var draftPolicy: DraftPolicy
  /// The draft model of a request that speculates with one (`Speculation.draft`).
  let drafter: ModelDrafter?
  /// What the lookup learns under a constraint (see `draft(budget:cancellation:)`).
  var memory = GuidedLookupMemory()
  /// What the output changes in the text it copies, without a constraint (`CopyEdits`).
  var edits = CopyEdits()

  /// A token tried after a sampled one, with the tokens allowed after it when few.
  struct Draft {
    let token: Token
    var allowedAfter: [Token]?
    /// What guessed it; nil where the constraint forces it after the drafts before it: it is
    /// taken when they are.
    var guess: Guess?
    /// Longer tokens the model may write in place of this forced one (see `heal`), chosen by
    /// the logits before it.
    var extensions: [Token] = []
    /// Where the prompt holds the text it copies.
    var source: Int?
    /// The forced token this one, a longer token the model wrote in its place before, stands
    /// for (`Guess.presumed`).
    var replacing: Token?

    var forced: Bool { guess == nil }
  }

  /// Where a draft's guess comes from.
  enum Guess {
    /// The text after the most recent occurrence of the output's last tokens (`PromptLookup`),
    /// or after every occurrence, where they agree.
    case copied
    /// Without a constraint, the text after the most recent occurrence of a match too short
    /// for a copied span's draft (`DraftPolicy.shortMatch`).
    case shortCopy
    /// Without a constraint, the text after the output's last tokens near where the output
    /// copied it last (`CopyEdits.realign`), where no copied span's match is found.
    case realigned
    /// Under a constraint, the text after the occurrence nearest after where the output copied
    /// the prompt last (`GuidedLookupMemory.cursor`), where the occurrences disagree.
    case nearest
    /// Under a constraint, the document's text after the value's text (a string's since its
    /// quote, a number's digits) where every occurrence goes on so (`SpelledLookup`).
    case spelled
    /// Under a constraint, the rest of a date's ISO 8601 form where the document writes the
    /// date with its month's name and the output's string begins as that form (`DocumentDates`).
    case date
    /// Under a constraint, right after a key, the document's text where its next value begins
    /// after where the output copied last (`NextValueLookup`).
    case nextValue
    /// The token that ended values before (`GuidedLookupMemory.closers`).
    case closer
    /// A longer token in place of a forced one, as the model wrote it the last time that one
    /// was forced (`GuidedLookupMemory.longerToken(writing:)`).
    case presumed
    /// The draft model's.
    case model
  }

  /// How to read the logits an evaluation returns.
  private enum Reading {
    /// A prompt part before the last: no logits are read.
    case promptPart
    /// One output: the logits after the batch.
    case latest
    /// Two outputs: the logits before the batch's last token, a forced one, from which the
    /// model may choose one of `extensions` instead of it; then the logits after it.
    case healing(extensions: [Token], drafts: [Draft])
    /// As `healing`, where the batch's last token is `presumed`, a longer token evaluated in
    /// place of the forced `forced` (see `presumeExtension`): the first output chooses among
    /// them; the second, the logits after `presumed`, counts where it is the one chosen.
    case presumed(Token, forced: Token, extensions: [Token], drafts: [Draft])
    /// One output after the batch and one after each draft token.
    case drafts([Draft])
    /// One output after each token of a prompt chunk, each scoring the prompt's next token.
    case promptScores
  }

  /// - Parameters:
  ///   - contextLength: the most tokens the sequence's cache may hold.
  ///   - drafter: the draft model, which a request with `Speculation.draft` needs.
  /// - Throws: `EngineError` when the prompt is empty or does not fit, the budget is not
  ///   positive, or the request speculates with a draft model and there is none.
  init(request: GenerationRequest, model: any TokenModel, contextLength: Int, drafter: ModelDrafter? = nil) throws {
    try Self.check(request, contextLength: contextLength)
    guard request.speculation != .draft || drafter != nil else {
      throw EngineError(.invalidRequest, "speculation with a draft model needs a session with a draft model")
    }
    self.drafter = request.speculation == .draft ? drafter : nil
    self.request = request
    self.model = model
    self.contextLength = contextLength
    state = DecodeState(request: request, model: model)
    draftPolicy = DraftPolicy(constrained: request.constraint != nil)
  }

  /// Refuses a request that cannot run.
  /// - Throws: `EngineError` when the prompt is empty or does not fit, or the budget is not positive.
  static func check(_ request: GenerationRequest, contextLength: Int) throws {
    let prompt = request.promptTokens
    guard !prompt.isEmpty else { throw EngineError(.invalidRequest, "the prompt is empty") }
    guard prompt.count < contextLength else {
      throw EngineError(
        .promptTooLong,
        "the prompt has \(prompt.count) tokens, which does not fit the context of \(contextLength) tokens")
    }
    // Scoring a prompt is a request of its own: it may generate nothing.
    let scoresPrompt = request.logProbabilities?.includesPrompt == true
    if let maximum = request.maximumTokens, maximum < (scoresPrompt ? 0 : 1) {
      throw EngineError(.invalidRequest, "maximumTokens must be positive, not \(maximum)")
    }
    if let wanted = request.logProbabilities {
      // A constraint forces tokens that no logits chose, and narrows the ones it lets the model choose.
      guard request.constraint == nil, wanted.alternatives >= 0 else {
        throw EngineError(
          .invalidRequest, "log probabilities are reported for unconstrained requests, with alternatives of 0 or more")
      }
    }
  }

  /// The tokens generated so far, forced ones included, end-of-turn token excluded.
  var generated: [Token] { state.generated }

  /// The counts of the generation so far; the driver adds the timings.
  var usage: GenerationUsage {
    var usage = GenerationUsage()
    usage.promptTokens = request.promptTokens.count
    usage.cachedPromptTokens = cachedPromptTokens
    usage.generatedTokens = state.generated.count
    usage.forcedTokens = state.forcedCount
    usage.draftTokens = state.draftedTokens
    usage.confirmedDraftTokens = state.confirmedDrafts
    return usage
  }

  /// The first step: evaluate the prompt after the prefix the cache already holds, part by
  /// part as `promptPlan` says.
  /// - Parameters:
  ///   - cachedTokens: the tokens in the sequence's cache now.
  ///   - boundaries: where the prompt parts evaluated into that cache end.
  ///   - exactParts: whether parts are worth a decode each (`TokenBackend.evaluatesPartsExactly`).
  ///   - consistentRows: the fewest rows whose logits round as a larger evaluation's
  ///     (`TokenBackend.consistentRows`).
  mutating func start(
    cachedTokens: [Token], boundaries: PartBoundaries = PartBoundaries(), exactParts: Bool = true,
    consistentRows: Int = 1
  ) -> DecodeStep {
    if request.logProbabilities?.includesPrompt == true {
      // Every prompt token after the first is scored by the logits before it: none is reused.
      promptScores = [TokenLogProbability(token: request.promptTokens[0], logProbability: nil)]
      return scoreNextPromptChunk()
    }
    let plan = Self.promptPlan(
      prompt: request.promptTokens, boundaries: request.promptBoundaries, cachedTokens: cachedTokens,
      cachedBoundaries: boundaries, exactParts: exactParts, consistentRows: consistentRows)
    cachedPromptTokens = plan.reused
    cacheLength = plan.reused
    pendingParts = plan.parts
    return evaluateNextPart()
  }

  /// The step that evaluates the next prompt part; the last one's logits choose the first token.
  private mutating func evaluateNextPart() -> DecodeStep {
    let part = pendingParts.removeFirst()
    let tokens = Array(request.promptTokens[part.range])
    var step: DecodeStep
    if pendingParts.isEmpty {
      // Under a constraint whose start allows few tokens (an object's `{`), only theirs are needed.
      let opening = request.constraint?.allowedTokens(limit: Self.candidateLimit).map { [$0] }
      step = evaluate(tokens, outputs: 1, candidates: opening, reading: .latest)
    } else {
      // No logits are read after an earlier part: ask for none of its rows of the output layer.
      step = evaluate(tokens, outputs: 1, candidates: [[]], reading: .promptPart)
    }
    step.endsPromptPart = part.endsPart
    return step
  }

  /// The prompt's scores, once the whole prompt is scored: they are reported together, once.
  private mutating func takePromptScores() -> [TokenLogProbability] {
    guard cacheLength >= request.promptTokens.count else { return [] }
    defer { promptScores = [] }
    return promptScores
  }

  /// The step that evaluates the prompt's next tokens with an output after each (see
  /// `Reading.promptScores`).
  private mutating func scoreNextPromptChunk() -> DecodeStep {
    let prompt = request.promptTokens
    let tokens = Array(prompt[cacheLength..<min(cacheLength + Self.scoringWidth, prompt.count)])
    return evaluate(tokens, outputs: tokens.count, candidates: nil, reading: .promptScores)
  }

  /// Scores the prompt tokens after the chunk evaluated last, whose outputs are `outputs`.
  private mutating func scorePrompt(after outputs: [UnsafeBufferPointer<Float>]) {
    let prompt = request.promptTokens
    let start = cacheLength - outputs.count
    let alternatives = request.logProbabilities?.alternatives ?? 0
    for (index, logits) in outputs.enumerated() where start + index + 1 < prompt.count {
      promptScores.append(
        TokenLogProbability(token: prompt[start + index + 1], logits: logits, alternatives: alternatives))
    }
  }

  /// The step after an evaluation; call it only after an `.evaluate` step, with its logits.
  /// - Parameters:
  ///   - outputs: the logits the evaluation returned, as many as it asked for, oldest first.
  ///   - cancellation: read before each choice of tokens: generation stops between tokens.
  /// - Throws: `EngineError.Code.cancelled`, or the constraint's error when it refuses a token.
  mutating func next(after outputs: [UnsafeBufferPointer<Float>], cancellation: CancellationFlag) throws
    -> DecodeStep
  {
    guard let logits = outputs.last else { throw EngineError(.decodeFailed, "an evaluation returned no logits") }
    var carried: Token?
    switch reading {
    case .promptPart:
      return evaluateNextPart()
    case .promptScores:
      scorePrompt(after: outputs)
      if cacheLength < request.promptTokens.count { return scoreNextPromptChunk() }
    case .latest:
      break
    case .healing(let extensions, let drafts):
      if let forced = batch.last, let chosen = try heal(forced, among: extensions, logits: outputs[0]) {
        // The drafts followed the forced token: they leave the cache with it.
        cacheLength -= 1 + drafts.count
        carried = chosen
      } else if !drafts.isEmpty {
        return try confirmAndChoose(drafts, outputs: Array(outputs.dropFirst()), cancellation: cancellation)
      }
    case .presumed(let presumed, let forced, let extensions, let drafts):
      let chosen = try heal(forced, among: extensions, logits: outputs[0])
      if chosen == presumed {
        return try confirmAndChoose(drafts, outputs: Array(outputs.dropFirst()), cancellation: cancellation)
      }
      // The model writes it otherwise here: the presumed token leaves the cache with the drafts
      // after it, and what the model chose, the forced token or another longer one, is evaluated.
      cacheLength -= 1 + drafts.count
      carried = chosen ?? forced
    case .drafts(let drafts):
      return try confirmAndChoose(drafts, outputs: outputs, cancellation: cancellation)
    }
    return try choose(after: logits, carrying: carried, cancellation: cancellation)
  }

  /// Takes what the model confirms of `drafts` (`confirm`), then the next tokens.
  /// - Parameter outputs: the logits after the batch and after each draft token.
  private mutating func confirmAndChoose(
    _ drafts: [Draft], outputs: [UnsafeBufferPointer<Float>], cancellation: CancellationFlag
  ) throws -> DecodeStep {
    let (confirmed, correction, healed) = try confirm(drafts, outputs: outputs)
    batch = []
    if let stop = stopCondition() { return finish(stop) }
    return try choose(after: outputs[confirmed], carrying: healed, sampled: correction, cancellation: cancellation)
  }

  /// Takes the next tokens, sampled after `logits` or the `carried` one, then asks for their
  /// evaluation or finishes.
  /// - Parameters:
  ///   - carried: a token the model chose in place of a forced one (see `heal`): taken, not yet
  ///     evaluated.
  ///   - sampled: the token drawn after `logits` where it refused a draft (see `confirm`).
  private mutating func choose(
    after logits: UnsafeBufferPointer<Float>, carrying carried: Token?, sampled: Token? = nil,
    cancellation: CancellationFlag
  ) throws -> DecodeStep {
    if cancellation.isCancelled { throw EngineError(.cancelled, "cancelled") }
    if request.maximumTokens == 0 { return finish(.maximumTokens) }
    let budget = min((request.maximumTokens ?? .max) - state.generated.count, contextLength - cacheLength - 1)
    batch = []
    var endsForced = false
    if let carried {
      batch = [carried]
      if let stop = stopCondition() { return finish(stop) }
    } else {
      let (next, forced) = try state.nextTokens(logits: logits, budget: budget, sampled: sampled)
      // Unconstrained (see `GenerationRequest.LogProbabilities`): one token, sampled after `logits`.
      let scored = request.logProbabilities.map { wanted in
        TokenLogProbability(token: next[0], logits: logits, alternatives: wanted.alternatives)
      }
      let taken = state.generated.count
      let stop = try take(next, forced: forced)
      // An end-of-turn token is not output, so it has no score either.
      if let scored, state.generated.count > taken { scores.append(scored) }
      if let stop { return finish(stop) }
      endsForced = forced
    }
    // Forced text right after a sampled token goes into the same batch: the logits that
    // follow the sampled token would pick nothing, so one decode does the work of two. So does
    // forced text after forced text (a call's marker, then its name, then its arguments'
    // opening): every run the constraint forces goes in, up to where the model has a choice.
    while let more = request.constraint?.forcedTokens(), !more.isEmpty {
      if let stop = try take(more, forced: true) { return finish(stop) }
      endsForced = true
    }
    guard endsForced else {
      // Speculation: after a sampled token, tokens that followed the same words before are
      // evaluated with it; those the model confirms are taken without a pass of their own.
      return evaluateBatch(drafts: draft(budget: budget - batch.count, cancellation: cancellation))
    }
    let extensions = extensions(budget: budget - batch.count)
    if extensions.isEmpty {
      return evaluateBatch(drafts: draft(budget: budget - batch.count, afterForced: true, cancellation: cancellation))
    }
    guard batch.count == 1 else {
      if let step = presumeExtension(among: extensions, budget: budget - batch.count, cancellation: cancellation) {
        return step
      }
      // The logits before the forced token choose among it and its extensions (an output of
      // their own); guesses after it count where it stays.
      let drafts = draft(budget: budget - batch.count, afterForced: true, outputsBefore: 2, cancellation: cancellation)
      return evaluateBatch(healing: extensions, drafts: drafts)
    }
    // The logits at hand precede the forced token: choose before evaluating it.
    if let forced = batch.last, let chosen = try heal(forced, among: extensions, logits: logits) {
      return try choose(after: logits, carrying: chosen, cancellation: cancellation)
    }
    return evaluateBatch(drafts: draft(budget: budget - batch.count, afterForced: true, cancellation: cancellation))
  }

  /// Where the model wrote the batch's last token, a forced one, as one of its `extensions` the
  /// last time it was forced (`GuidedLookupMemory.longerToken(writing:)`: Qwen writes `":["` where
  /// an array of strings opens), the step that evaluates that longer token in its place, with
  /// guesses after it; nil where speculation is off or there is no such token.
  ///
  /// The logits before it choose as they would choose among the forced token and its extensions
  /// (`heal`); where they choose the presumed one, the logits after it are at hand, and the
  /// pass that would evaluate it after the choice is saved. It adds no row to the evaluation.
  private mutating func presumeExtension(among extensions: [Token], budget: Int, cancellation: CancellationFlag)
    -> DecodeStep?
  {
    guard request.speculation != .off, let constraint = request.constraint, let forced = batch.last,
      let presumed = memory.longerToken(writing: forced), extensions.contains(presumed),
      let before = constraint.snapshot()
    else { return nil }
    defer { constraint.restore(before) }
    guard (try? constraint.acceptExtension(of: forced, by: presumed)) != nil else { return nil }
    // Forced text after the presumed token is taken with it (`draft`); the candidates are read
    // while the constraint stands after the presumed token.
    let drafts = draft(
      budget: budget, afterForced: true, outputsBefore: 2, presumed: presumed, cancellation: cancellation)
    return evaluateBatch(healing: extensions, drafts: drafts, presumed: presumed)
  }

  /// What a draft model's guess costs, in decodes of one row of the generating model: its
  /// model's decode of one row against this model's, as measured (`DecodeCosts`); 0 where
  /// either is unknown.
  var modelGuessCost: Double {
    guard let theirs = drafter?.oneRowSeconds, let ours = decodeCosts?.oneRowSeconds, ours > 0 else { return 0 }
    return theirs / ours
  }

  /// Why generation ends here, if it does.
  private func stopCondition() -> StopReason? {
    if request.constraint?.mustEnd == true { return .constraintComplete }
    if let maximum = request.maximumTokens, state.generated.count >= maximum { return .maximumTokens }
    if cacheLength + batch.count >= contextLength { return .contextFull }
    return nil
  }

  /// Appends `tokens` to the output and the batch, then says whether generation ends after them.
  private mutating func take(_ tokens: [Token], forced: Bool) throws -> StopReason? {
    for token in tokens {
      if model.isEndOfGeneration(token) { return .endOfTurn }
      try append(token, forced: forced)
      batch.append(token)
    }
    return stopCondition()
  }

  /// Accepts, records and decodes one token of the output.
  private mutating func append(_ token: Token, forced: Bool) throws {
    try request.constraint?.accept(token)
    memory.took(token, forced: forced, after: state.generated.last, position: state.generated.count)
    if !forced, request.constraint != nil, request.speculation != .off {
      memory.follow(token, inPrompt: request.promptTokens, model: model)
    }
    state.append(token, forced: forced)
    text.append(state.decoder.decode(request.shownControlTokens[token] ?? model.piece(of: token)))
  }

  /// What is left of `budget` after the tokens that close the output and one to choose with.
  func spare(_ budget: Int) -> Int {
    guard let constraint = request.constraint else { return budget - 1 }
    // The bound decides alone while it leaves more than the drafts could use.
    let bound = constraint.closingTokenBound
    let closing = budget - bound - 1 > Self.maximumDrafts ? bound : constraint.tokensToClose().count
    return budget - closing - 1
  }

  /// Longer tokens that begin with the text of the batch's last token, a forced one, when
  /// `budget` (what is left after the batch) leaves room to close the output after one, as it
  /// must after a sampled token.
  private func extensions(budget: Int) -> [Token] {
    guard let constraint = request.constraint, let last = batch.last else { return [] }
    let extensions = constraint.extensions(of: last)
    return !extensions.isEmpty && spare(budget) > 0 ? extensions : []
  }

  /// Boundary healing: `logits` precede `forced`, the last token taken, a forced one.
  ///
  /// When the model prefers a longer token that begins with its text, that token replaces it (and
  /// is returned); the forced token must then leave the cache if it was evaluated.
  private mutating func heal(_ forced: Token, among extensions: [Token], logits: UnsafeBufferPointer<Float>) throws
    -> Token?
  {
    let chosen = state.choose(among: [forced] + extensions, logits: logits)
    memory.wrote(forced, as: chosen)
    guard chosen != forced else { return nil }
    try request.constraint?.acceptExtension(of: forced, by: chosen)
    state.replaceLast(by: chosen)
    memory.took(chosen, forced: false, after: nil, position: state.generated.count)
    text.append(state.decoder.decode(Array(model.piece(of: chosen).dropFirst(model.piece(of: forced).count))))
    return chosen
  }

  /// Where the prompt holds the text `draft` copies, for `CopyEdits`: a copied guess without a
  /// constraint, from the prompt (not from the output's own text).
  private func copiedFromPrompt(_ draft: Draft) -> Int? {
    guard request.constraint == nil, [.copied, .shortCopy, .realigned].contains(draft.guess), let source = draft.source,
      source < request.promptTokens.count
    else { return nil }
    return source
  }

  /// Takes the draft tokens the model confirms, each being what it takes after the ones before
  /// (`DecodeState.verify`), and drops the others from the cache.
  /// - Parameter outputs: the logits after the batch and after each draft token.
  /// - Returns: how many were confirmed; in a sampled request, the token drawn in place of the
  ///   first refused one (a greedy request's is chosen again, as any); and the longer token the
  ///   model wrote in place of a forced one (`heal`), taken but not evaluated, after which the
  ///   draft ends.
  private mutating func confirm(_ drafts: [Draft], outputs: [UnsafeBufferPointer<Float>]) throws -> (
    Int, Token?, Token?
  ) {
    var confirmed = 0
    var correction: Token?
    var healed: Token?
    while confirmed < drafts.count {
      let draft = drafts[confirmed]
      if let forced = draft.replacing {
        // The forced token is taken; the logits before it choose whether the model writes it
        // as presumed, and where it does not, what it chose is evaluated next.
        try append(forced, forced: true)
        let chosen = try heal(forced, among: draft.extensions, logits: outputs[confirmed])
        guard chosen == draft.token else {
          healed = chosen ?? forced
          break
        }
        confirmed += 1
        continue
      }
      let taken = draft.forced ? draft.token : state.verify(draft.token, after: outputs[confirmed])
      guard taken == draft.token else {
        if !state.isGreedy { correction = taken }
        if let source = copiedFromPrompt(draft) {
          edits.refused(draft.token, source: source, output: state.generated.count, prompt: request.promptTokens)
        }
        // A next value's first guess follows a key's last token, which every key shares: refused
        // there, it is no sign against the same token after another key.
        if request.constraint != nil, let guess = draft.guess, guess != .model, guess != .nextValue,
          let before = confirmed == 0 ? batch.last : drafts[confirmed - 1].token
        {
          memory.refuse(draft.token, after: before, model: model)
        }
        break
      }
      try append(taken, forced: draft.forced)
      if let source = draft.source { memory.cursor = source + 1 }
      if let source = copiedFromPrompt(draft) {
        edits.confirmed(
          source: source, output: state.generated.count - 1, prompt: request.promptTokens, generated: state.generated)
      }
      if !draft.extensions.isEmpty {
        healed = try heal(taken, among: draft.extensions, logits: outputs[confirmed])
        if healed != nil { break }
      }
      confirmed += 1
    }
    draftPolicy.odds.record(drafts, confirmed: confirmed)
    // Forced text is certain: the guesses alone measure the lookup; the nearest occurrence's
    // text and the next value's, guesses where the lookup has none, do not.
    state.draftedTokens += drafts.filter { !$0.forced }.count
    state.confirmedDrafts += drafts.prefix(confirmed).filter { !$0.forced }.count
    let lookedUp = { (draft: Draft) in draft.guess.map { ![.nearest, .nextValue, .presumed].contains($0) } ?? false }
    draftPolicy.record(
      drafted: drafts.filter(lookedUp).count, confirmed: drafts.prefix(confirmed).filter(lookedUp).count,
      generated: state.generated.count, byModel: drafts.contains { $0.guess == .model },
      short: drafts.contains { $0.guess == .shortCopy })
    // A healed token leaves the cache with the refused drafts: the longer one is evaluated next.
    cacheLength -= drafts.count - confirmed
    return (confirmed, correction, healed)
  }

  /// The step that asks for the batch and `drafts` after it to be evaluated.
  private mutating func evaluateBatch(drafts: [Draft]) -> DecodeStep {
    // When few tokens can follow, only their logits are computed.
    var candidates: [[Token]]?
    let allowedAfterDrafts = drafts.compactMap(\.allowedAfter)
    if allowedAfterDrafts.count == drafts.count,
      let allowed = request.constraint?.allowedTokens(limit: Self.candidateLimit)
    {
      candidates = [allowed] + allowedAfterDrafts
    }
    return evaluate(
      batch + drafts.map(\.token), outputs: 1 + drafts.count, candidates: candidates,
      reading: drafts.isEmpty ? .latest : .drafts(drafts))
  }

  /// The step that asks for the batch to be evaluated with the logits before its last token, a
  /// forced one, as well: the model chooses among it and `extensions` there. Where `presumed`
  /// is given, that longer token is evaluated in the forced one's place (`presumeExtension`).
  private mutating func evaluateBatch(healing extensions: [Token], drafts: [Draft], presumed: Token? = nil)
    -> DecodeStep
  {
    let forced = batch[batch.count - 1]
    // Where the first draft is forced text the model may write longer, the logits before it
    // choose among its longer tokens too.
    var candidates = request.constraint?.allowedTokens(limit: Self.candidateLimit).map { allowed in
      [[forced] + extensions, allowed + (drafts.first?.extensions ?? [])]
    }
    let allowedAfterDrafts = drafts.compactMap(\.allowedAfter)
    if allowedAfterDrafts.count == drafts.count { candidates? += allowedAfterDrafts } else { candidates = nil }
    if let presumed { batch[batch.count - 1] = presumed }
    return evaluate(
      batch + drafts.map(\.token), outputs: 2 + drafts.count, candidates: candidates,
      reading: presumed.map { .presumed($0, forced: forced, extensions: extensions, drafts: drafts) }
        ?? .healing(extensions: extensions, drafts: drafts))
  }

  private mutating func evaluate(_ tokens: [Token], outputs: Int, candidates: [[Token]]?, reading: Reading)
    -> DecodeStep
  {
    let step = DecodeStep(
      text: text, cacheLength: cacheLength, action: .evaluate(tokens, outputs: outputs, candidates: candidates),
      logProbabilities: scores, promptLogProbabilities: takePromptScores())
    text = []
    scores = []
    cacheLength += tokens.count
    self.reading = reading
    return step
  }

  private mutating func finish(_ reason: StopReason) -> DecodeStep {
    text.append(state.decoder.finish())
    defer {
      text = []
      scores = []
    }
    return DecodeStep(
      text: text, cacheLength: cacheLength, action: .finish(reason), logProbabilities: scores,
      promptLogProbabilities: takePromptScores())
  }

  /// The most draft tokens evaluated with a sampled one where the backend says no other
  /// (`TokenBackend.draftTokenLimit`'s default; llama.cpp's contexts allow 31, see
  /// `LlamaTokenBackend.outputLimit`): as many as every backend's four outputs hold.
  static let maximumDrafts = 3

  /// The prompt tokens a scoring evaluation holds (`GenerationRequest.LogProbabilities`): one
  /// output each, as many as every backend returns (`TokenBackend.maximumOutputs`), a sampled
  /// token with its drafts.
  static let scoringWidth = 1 + maximumDrafts

  /// The most allowed tokens for which the steps ask for those logits only: this many rows of
  /// Qwen's output matrix cost a small fraction of the whole product (`bench/README.md`).
  static let candidateLimit = 1024
}
