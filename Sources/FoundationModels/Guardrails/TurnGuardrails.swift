import Guardrails

/// The guardrails of one model invocation: which checks run, and the checks themselves.
///
/// In `.default` mode every text the model reads (instructions, the prompt, tool outputs) is
/// checked before the model is called, and the text it generates is checked while it streams.
/// The third stage of an input check is the embedding probe (``GuardrailProbe``) when its model
/// is in the model store and no judge was chosen for the model, else the model's judge.
/// In `.permissiveContentTransformations` mode a `String` request runs no check at all, so it
/// never fails with a guardrail violation; a request for any other type is checked as in
/// `.default` mode.
struct TurnGuardrails: Sendable {
  /// Whether the checks run for this request.
  let isActive: Bool
  private let judge: (any GuardrailJudge)?
  /// The embedding probe, unless the model was given a judge of the user's choice.
  private let probe: GuardrailProbe?

  /// - Parameter mode: the guardrails to apply, the runner's own (the model's choice) by default.
  init(runner: ModelRunner, mode: SystemLanguageModel.Guardrails? = nil, generatesString: Bool) {
    isActive = !((mode ?? runner.guardrails).isPermissive && generatesString)
    judge = runner.judge
    probe = runner.hasChosenJudge ? nil : GuardrailProbe.shared
  }

  /// The shipped cascade, or the error that says why it cannot run.
  private static let cascade: Result<GuardrailCascade, any Error> = Result { try GuardrailCascade.shipped() }

  /// Checks text the model is about to read.
  /// - Parameter source: what the text is, as the error names it ("the prompt", "the output of
  ///   the tool 'search'").
  /// - Throws: `LanguageModelError.guardrailViolation` (input side) when the text is blocked.
  func checkInput(_ text: String, source: String) async throws {
    try await check(text, side: .input, source: source)
  }

  /// Checks text the model generated (the tail of a streamed answer, or all of it at the end) with
  /// the patterns and the classifier's confident decisions: a text in the classifier's uncertain
  /// band passes.
  ///
  /// Why: generated prose sits in the band often — a story about the sea and its gods fell in the
  /// band for hate and harassment, and a long smollm2 story was blocked by the decision threshold —
  /// while a judge in the middle of a stream would hold it for two generations at every uncertain
  /// checkpoint, and a small model's judge calls most benign texts unsafe (`bench/README.md`,
  /// Guardrails). The classifier's request head, which learnt prompts, does not count here.
  /// Prompts, instructions and tool outputs get the whole cascade.
  /// - Throws: `LanguageModelError.guardrailViolation` (output side) when the text is blocked.
  /// - Parameter source: what the text is, as the error names it ("the response").
  func checkOutput(_ text: some StringProtocol, source: String = "the response") async throws {
    try await check(String(text), side: .output, source: source)
  }

  /// Checks a growing answer before it is shown: the patterns on its tail every time, the
  /// output check on the tail at each of `checkpoints`.
  /// - Throws: `LanguageModelError.guardrailViolation` (output side) when the text is blocked.
  func checkGrowingOutput(_ text: String, checkpoints: inout StreamingCheckpoints) async throws {
    guard isActive else { return }
    try checkOutputPatterns(text.suffix(Self.patternTail))
    if let tail = checkpoints.textToCheck(text) { try await checkOutput(tail) }
  }

  /// The characters of a growing answer the patterns read on every snapshot.
  static let patternTail = 240

  /// Checks the tail of a growing answer with the patterns alone (on every snapshot, before it
  /// is shown; the whole cascade runs at ``StreamingCheckpoints``).
  /// - Throws: `LanguageModelError.guardrailViolation` (output side) when a pattern matches.
  func checkOutputPatterns(_ tail: some StringProtocol) throws {
    guard isActive, let category = GuardrailCascade.blockedByPattern(tail) else { return }
    throw Self.violation(category: category, side: .output, source: "the response", stage: .pattern)
  }

  private func check(_ text: String, side: GuardrailSide, source: String) async throws {
    guard isActive, !text.isEmpty else { return }
    let cascade: GuardrailCascade
    do {
      cascade = try Self.cascade.get()
    } catch {
      throw SystemLanguageModel.Error.assetsUnavailable(
        .init(debugDescription: "The guardrails cannot run: \(error)"))
    }
    let verdict: GuardrailVerdict
    if side == .input, let probe {
      verdict = await cascade.check(text, probe: probe.probe) { try probe.embedding(of: $0) }
    } else if side == .input {
      verdict = await cascade.check(text, judge: judge)
    } else {
      guard case .decided(let decided) = cascade.assess(text, readsRequests: false) else { return }
      verdict = decided
    }
    guard let category = verdict.violation else { return }
    throw Self.violation(category: category, side: side, source: source, stage: verdict.stage)
  }

  /// The error of a blocked text: its side, category and source in words and in the metadata
  /// (`side`: `input`/`output`; `category`: a `GuardrailCategory` name such as
  /// `violenceAndWeapons`; `stage`: `pattern`, `classifier`, `probe` or `judge`; `source`).
  static func violation(category: GuardrailCategory, side: GuardrailSide, source: String, stage: GuardrailVerdict.Stage)
    -> LanguageModelError
  {
    let what = side == .input ? "The input (\(source))" : "The output (\(source))"
    return .guardrailViolation(
      .init(
        debugDescription: "\(what) was blocked by the guardrails: \(category.displayName).",
        metadata: ["side": side.rawValue, "category": category.rawValue, "stage": stage.rawValue, "source": source]))
  }
}

extension LanguageModelError {
  /// Whether this is a guardrail violation (the checks' or a provider's).
  var isGuardrailViolation: Bool {
    if case .guardrailViolation = self { true } else { false }
  }
}
