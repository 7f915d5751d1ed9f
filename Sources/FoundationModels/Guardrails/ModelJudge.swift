import Foundation
import Guardrails

/// The judge of a session's model: a request on a separate executor of the model (so the
/// conversation's state, such as the local model's KV cache, is untouched), its answer
/// constrained by guided generation to "yes" or "no".
///
/// A "yes, unsafe" is confirmed by asking the opposite question ("is it safe?"); a judge that
/// contradicts itself is ignored and the classifier decides. Verdicts are remembered per text
/// and category (``JudgeModel``).
final class ModelJudge: GuardrailJudge, Sendable {
  private let judge: JudgeModel<Verdict>

  private enum Verdict {
    case unsafe, safe
    /// The judge called the text both unsafe and safe.
    case contradicted
  }
  /// The most characters of a text the judge reads: its opening and its end.
  static let textLimit = 800
  typealias Unavailable = JudgeUnavailable

  init(makeRunner: @escaping @Sendable () -> ModelRunner?) {
    judge = JudgeModel(makeRunner: makeRunner)
  }

  func isUnsafe(_ text: String, category: GuardrailCategory) async throws -> Bool {
    let key = category.rawValue + "\u{0}" + text
    switch judge.remembered(key) {
    case .unsafe?: return true
    case .safe?: return false
    case .contradicted?: throw Unavailable(reason: "the judge called the text both unsafe and safe")
    case nil: break
    }
    guard try judge.model().capabilities.contains(.guidedGeneration) else {
      throw Unavailable(reason: "the model cannot constrain its answer to yes or no")
    }
    // A "yes" is confirmed by the opposite question, so a model that agrees with every question
    // (small models do) blocks nothing: a contradiction leaves the text to the classifier.
    guard try await ask(Self.request(for: text, category: category, askingIfSafe: false)) else {
      judge.remember(.safe, for: key)
      return false
    }
    guard try await !ask(Self.request(for: text, category: category, askingIfSafe: true)) else {
      judge.remember(.contradicted, for: key)
      throw Unavailable(reason: "the judge called the text both unsafe and safe")
    }
    judge.remember(.unsafe, for: key)
    return true
  }

  /// The judge's yes (true) or no (false) to `request`: the string its constrained answer holds.
  private func ask(_ request: LanguageModelExecutorGenerationRequest) async throws -> Bool {
    let text = try await judge.answer(to: request)
    let answer =
      if case .string(let answer)? = (try? GeneratedContent(json: text))?.kind { answer.lowercased() } else {
        text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
      }
    switch answer {
    case "yes": return true
    case "no": return false
    default: throw Unavailable(reason: "the judge answered \(answer)")
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
}

extension SystemLanguageModel {
  /// The judge the guardrails ask about this model's uncertain texts (a sibling context on the
  /// same weights), for benchmarks that measure it on its own.
  @_spi(Engine) public var guardrailJudge: any GuardrailJudge {
    ModelJudge { self.judgeRunner() }
  }
}
