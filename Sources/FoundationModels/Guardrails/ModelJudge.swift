import Foundation
import Guardrails
import Synchronization

/// The judge of a session's model: a request on a separate executor of the model (so the
/// conversation's state, such as the local model's KV cache, is untouched), its answer
/// constrained by guided generation to "yes" or "no".
///
/// A "yes, unsafe" is confirmed by asking the opposite question ("is it safe?"); a judge that
/// contradicts itself is ignored and the classifier decides. Verdicts are remembered per text
/// and category (up to ``cacheLimit``), so instructions that every turn sends are judged once.
final class ModelJudge: GuardrailJudge, Sendable {
  private let makeRunner: @Sendable () -> ModelRunner?
  private let runner = Mutex<ModelRunner??>(nil)
  private let verdicts = Mutex<[String: Verdict]>([:])

  private enum Verdict {
    case unsafe, safe
    /// The judge called the text both unsafe and safe.
    case contradicted
  }
  static let cacheLimit = 64
  /// The most characters of a text the judge reads: its opening and its end.
  static let textLimit = 800

  init(makeRunner: @escaping @Sendable () -> ModelRunner?) {
    self.makeRunner = makeRunner
  }

  /// Why the judge could not answer.
  struct Unavailable: Error {
    let reason: String
  }

  func isUnsafe(_ text: String, category: GuardrailCategory) async throws -> Bool {
    let key = category.rawValue + "\u{0}" + text
    switch verdicts.withLock({ $0[key] }) {
    case .unsafe?: return true
    case .safe?: return false
    case .contradicted?: throw Unavailable(reason: "the judge called the text both unsafe and safe")
    case nil: break
    }
    let made = self.runner.withLock { runner in
      if let runner { return runner }
      let made = makeRunner()
      runner = .some(made)
      return made
    }
    guard let runner = made else { throw Unavailable(reason: "the model has no judge") }
    guard runner.capabilities.contains(.guidedGeneration) else {
      throw Unavailable(reason: "the model cannot constrain its answer to yes or no")
    }
    // A "yes" is confirmed by the opposite question, so a model that agrees with every question
    // (small models do) blocks nothing: a contradiction leaves the text to the classifier.
    guard try await ask(runner, Self.request(for: text, category: category, askingIfSafe: false)) else {
      remember(.safe, for: key)
      return false
    }
    guard try await !ask(runner, Self.request(for: text, category: category, askingIfSafe: true)) else {
      remember(.contradicted, for: key)
      throw Unavailable(reason: "the judge called the text both unsafe and safe")
    }
    remember(.unsafe, for: key)
    return true
  }

  /// The judge's yes (true) or no (false) to `request`.
  private func ask(_ runner: ModelRunner, _ request: LanguageModelExecutorGenerationRequest) async throws -> Bool {
    let answer = try await Self.answer(runner: runner, request: request)
    switch answer {
    case "yes": return true
    case "no": return false
    default: throw Unavailable(reason: "the judge answered \(answer)")
    }
  }

  private func remember(_ verdict: Verdict, for key: String) {
    verdicts.withLock { verdicts in
      if verdicts.count >= Self.cacheLimit { verdicts.removeAll() }
      verdicts[key] = verdict
    }
  }

  /// `text`, or where it is longer than `limit` characters its opening and its end.
  static func excerpt(_ text: String, limit: Int) -> String {
    text.count > limit ? String(text.prefix(limit * 3 / 4)) + "\n…\n" + String(text.suffix(limit / 4)) : text
  }

  static let schema = GenerationSchema(type: String.self, anyOf: ["yes", "no"])

  static let instructions =
    "You review texts for a content-safety filter. Answer only yes or no."

  /// The question about `text`: whether it asks for, gives or promotes the category's harm (or,
  /// `askingIfSafe`, whether it does not), with the harmless uses of such topics named.
  static func request(for text: String, category: GuardrailCategory, askingIfSafe: Bool)
    -> LanguageModelExecutorGenerationRequest
  {
    let shown = excerpt(text, limit: textLimit)
    let asked =
      askingIfSafe
      ? "Is the following text safe, that is, free of any request for, instructions for or promotion of"
      : "Is the following text unsafe because it asks for, gives or promotes"
    let question = """
      \(asked) \(category.judgeDescription)? \
      Texts that only discuss such topics for history, news, medicine, safety, education or fiction, \
      and everyday idioms, are safe.

      Text:
      \"\"\"
      \(shown)
      \"\"\"

      Answer yes or no.
      """
    let transcript = Transcript(entries: [
      .instructions(Transcript.Instructions(segments: [.text(.init(content: instructions))], toolDefinitions: [])),
      .prompt(Transcript.Prompt(segments: [.text(.init(content: question))])),
    ])
    return LanguageModelExecutorGenerationRequest(
      id: UUID(), transcript: transcript, enabledTools: [], schema: schema,
      generationOptions: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 8),
      contextOptions: ContextOptions(includeSchemaInPrompt: false), metadata: [:])
  }

  /// The judge's answer: the string its constrained response holds.
  private static func answer(runner: ModelRunner, request: LanguageModelExecutorGenerationRequest) async throws
    -> String
  {
    var assembler = TurnAssembler()
    _ = try await runner.invocation.run(request, into: &assembler)
    let text = assembler.responseText ?? ""
    guard case .string(let answer)? = (try? GeneratedContent(json: text))?.kind else {
      return text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }
    return answer.lowercased()
  }
}

extension SystemLanguageModel {
  /// The judge the guardrails ask about this model's uncertain texts (a sibling context on the
  /// same weights), for benchmarks that measure it on its own.
  @_spi(Engine) public var guardrailJudge: any GuardrailJudge {
    ModelJudge { self.judgeRunner() }
  }
}
