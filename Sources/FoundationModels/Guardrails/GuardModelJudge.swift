import Foundation
import Guardrails

/// A guard model as the guardrails' judge (``GuardModel``): its prompt, greedy and short, its
/// answer read by its format's convention. Verdicts are remembered per prompt (``JudgeModel``).
final class GuardModelJudge: GuardrailJudge, Sendable {
  let format: GuardModel.Format
  private let judge: JudgeModel<GuardModelAnswer>
  /// The most characters of a text the guard reads: its opening and its end (guard models
  /// read whole conversations; the limit only keeps a judge's prompt short).
  static let textLimit = 4000

  init(format: GuardModel.Format, makeRunner: @escaping @Sendable () -> ModelRunner?) {
    self.format = format
    judge = JudgeModel(makeRunner: makeRunner)
  }

  func isUnsafe(_ text: String, category: GuardrailCategory) async throws -> Bool {
    try await violation(in: text, mostLikely: category) != nil
  }

  /// The guard's category for an unsafe text (the first of its categories we have, else
  /// `mostLikely`), nil for a safe one.
  /// - Throws: ``JudgeUnavailable`` when there is no model or its answer does not follow the
  ///   format; the classifier then decides.
  func violation(in text: String, mostLikely: GuardrailCategory) async throws -> GuardrailCategory? {
    for prompt in format.prompts(for: ModelJudge.excerpt(text, limit: Self.textLimit), category: mostLikely) {
      let answer = try await answer(to: prompt)
      if answer.isUnsafe { return answer.categories.first ?? mostLikely }
    }
    return nil
  }

  private func answer(to prompt: String) async throws -> GuardModelAnswer {
    if let known = judge.remembered(prompt) { return known }
    let text = try await judge.answer(to: request(prompt))
    guard let answer = format.reading(text) else {
      throw JudgeUnavailable(reason: "the guard model's answer is not in the \(format) format: \(text.prefix(80))")
    }
    judge.remember(answer, for: prompt)
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
