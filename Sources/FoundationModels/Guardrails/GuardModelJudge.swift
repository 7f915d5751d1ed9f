import Foundation
import Guardrails
import Synchronization

/// A guard model as the guardrails' judge (``GuardModel``): its prompt, greedy and short, its
/// answer read by its format's convention. Verdicts are remembered per prompt (up to
/// ``ModelJudge/cacheLimit``), so instructions that every turn sends are judged once.
final class GuardModelJudge: GuardrailJudge, Sendable {
  let format: GuardModel.Format
  private let makeRunner: @Sendable () -> ModelRunner?
  private let runner = Mutex<ModelRunner??>(nil)
  private let answers = Mutex<[String: GuardModelAnswer]>([:])

  /// The most characters of a text the guard reads: its opening and its end (guard models
  /// read whole conversations; the limit only keeps a judge's prompt short).
  static let textLimit = 4000

  init(format: GuardModel.Format, makeRunner: @escaping @Sendable () -> ModelRunner?) {
    self.format = format
    self.makeRunner = makeRunner
  }

  func isUnsafe(_ text: String, category: GuardrailCategory) async throws -> Bool {
    try await violation(in: text, mostLikely: category) != nil
  }

  /// The guard's category for an unsafe text (the first of its categories we have, else
  /// `mostLikely`), nil for a safe one.
  /// - Throws: ``ModelJudge/Unavailable`` when there is no model or its answer does not follow
  ///   the format; the classifier then decides.
  func violation(in text: String, mostLikely: GuardrailCategory) async throws -> GuardrailCategory? {
    for prompt in format.prompts(for: ModelJudge.excerpt(text, limit: Self.textLimit), category: mostLikely) {
      let answer = try await answer(to: prompt)
      if answer.isUnsafe { return answer.categories.first ?? mostLikely }
    }
    return nil
  }

  private func answer(to prompt: String) async throws -> GuardModelAnswer {
    if let known = answers.withLock({ $0[prompt] }) { return known }
    let made = runner.withLock { runner in
      if let runner { return runner }
      let made = makeRunner()
      runner = .some(made)
      return made
    }
    guard let runner = made else { throw ModelJudge.Unavailable(reason: "the guard model could not be made") }
    var assembler = TurnAssembler()
    _ = try await runner.invocation.run(request(prompt), into: &assembler)
    let text = assembler.responseText ?? ""
    guard let answer = format.reading(text) else {
      throw ModelJudge.Unavailable(
        reason: "the guard model's answer is not in the \(format) format: \(text.prefix(80))")
    }
    answers.withLock { answers in
      if answers.count >= ModelJudge.cacheLimit { answers.removeAll() }
      answers[prompt] = answer
    }
    return answer
  }

  /// The request: the prompt alone as the user's message (no instructions: the guard models'
  /// templates take a conversation of user and assistant turns only), greedy.
  private func request(_ prompt: String) -> LanguageModelExecutorGenerationRequest {
    let transcript = Transcript(entries: [.prompt(Transcript.Prompt(segments: [.text(.init(content: prompt))]))])
    return LanguageModelExecutorGenerationRequest(
      id: UUID(), transcript: transcript, enabledTools: [], schema: nil,
      generationOptions: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: format.answerTokenLimit),
      contextOptions: ContextOptions(), metadata: [:])
  }
}
