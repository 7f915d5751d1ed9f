import Synchronization

/// What a judge of the guardrails (``ModelJudge``, ``GuardModelJudge``) keeps: the model it
/// asks, made on first use on an executor of its own, and the verdicts it gave, remembered per
/// key up to ``JudgeModel/cacheLimit`` (so instructions that every turn sends are judged once).
final class JudgeModel<Verdict: Sendable>: Sendable {
  private let makeRunner: @Sendable () -> ModelRunner?
  private let runner = Mutex<ModelRunner??>(nil)
  private let verdicts = Mutex<[String: Verdict]>([:])
  static var cacheLimit: Int { 64 }

  init(makeRunner: @escaping @Sendable () -> ModelRunner?) {
    self.makeRunner = makeRunner
  }

  /// The model, made on the first call.
  /// - Throws: ``JudgeUnavailable`` when there is none.
  func model() throws -> ModelRunner {
    let made = runner.withLock { runner in
      if let runner { return runner }
      let made = makeRunner()
      runner = .some(made)
      return made
    }
    guard let made else { throw JudgeUnavailable(reason: "there is no judge model") }
    return made
  }

  /// The text of the model's answer to `request`.
  func answer(to request: LanguageModelExecutorGenerationRequest) async throws -> String {
    var assembler = TurnAssembler()
    _ = try await model().invocation.run(request, into: &assembler)
    return assembler.responseText ?? ""
  }

  func remembered(_ key: String) -> Verdict? {
    verdicts.withLock { $0[key] }
  }

  func remember(_ verdict: Verdict, for key: String) {
    verdicts.withLock { verdicts in
      if verdicts.count >= Self.cacheLimit { verdicts.removeAll() }
      verdicts[key] = verdict
    }
  }
}

/// Why a judge could not answer: the check then decides by the classifier alone.
struct JudgeUnavailable: Error {
  let reason: String
}
