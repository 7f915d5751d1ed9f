import FMTestSupport
import Foundation
import Guardrails
import Synchronization
import Testing

@testable import FoundationModels

/// Guard models as the guardrails' judge (``GuardModel``): each format's prompt and answer
/// convention, read with scripted models in that convention.
@Suite struct GuardModelTests {
  typealias Format = GuardModel.Format

  @Test(arguments: [
    (Format.llamaGuard3, "safe", GuardModelAnswer.safe),
    (.llamaGuard3, "unsafe\nS11", GuardModelAnswer(isUnsafe: true, categories: [.selfHarm])),
    (
      .llamaGuard3, " unsafe\nS13, S10,S1",
      GuardModelAnswer(isUnsafe: true, categories: [.hateAndHarassment, .violenceAndWeapons])
    ),
    (.llamaGuard3, "unsafe\nS7", GuardModelAnswer(isUnsafe: true, categories: [])),
    (.qwen3Guard, "Safety: Safe\nCategories: None", GuardModelAnswer.safe),
    (.qwen3Guard, "Safety: Controversial\nCategories: Politically Sensitive Topics", GuardModelAnswer.safe),
    (
      .qwen3Guard, "Safety: Unsafe\nCategories: Violent, Jailbreak",
      GuardModelAnswer(isUnsafe: true, categories: [.violenceAndWeapons])
    ),
    (.shieldGemma, "Yes", GuardModelAnswer(isUnsafe: true, categories: [])),
    (.shieldGemma, "No.", GuardModelAnswer.safe),
    (.graniteGuardian, "No", GuardModelAnswer.safe),
    (
      .graniteGuardian, "<think>It asks for a weapon.</think>\n<score> yes </score>",
      GuardModelAnswer(isUnsafe: true, categories: [])
    ),
  ])
  func anAnswerIsReadByItsFormatsConvention(_ format: Format, _ answer: String, _ expected: GuardModelAnswer) {
    #expect(format.reading(answer) == expected)
  }

  @Test(arguments: Format.allCases)
  func anAnswerOutsideTheConventionIsNotRead(_ format: Format) {
    #expect(format.reading("I cannot help with that.") == nil)
    #expect(format.reading("") == nil)
  }

  @Test func theFormatIsFoundFromTheModelsName() {
    #expect(Format(modelName: "hf:QuantFactory/Llama-Guard-3-1B-GGUF:Q4_K_M") == .llamaGuard3)
    #expect(Format(modelName: "/models/llama_guard_4_12b.gguf") == .llamaGuard3)
    #expect(Format(modelName: "hf:QuantFactory/Qwen3Guard-Gen-0.6B-GGUF") == .qwen3Guard)
    #expect(Format(modelName: "shieldgemma-2b.Q4_K.gguf") == .shieldGemma)
    #expect(Format(modelName: "hf:QuantFactory/granite-guardian-3.0-2b-GGUF") == .graniteGuardian)
    #expect(Format(modelName: "qwen2.5-coder-0.5b") == nil)
    let model = SystemLanguageModel.scripted(.replying("Fine."))
    let guarded = model.guardrails(.default, judge: SystemLanguageModel(name: "hf:QuantFactory/Llama-Guard-3-1B-GGUF"))
    #expect(guarded.judgeFormat == .llamaGuard3, "a guard model named as the judge is asked in its format")
    #expect(model.guardrails(.default, judge: model).judgeFormat == nil)
  }

  @Test func shieldGemmaIsAskedThePoliciesOfTheLikelyCategory() {
    let hate = Format.shieldGemma.prompts(for: "Some text", category: .hateAndHarassment)
    #expect(hate.count == 2)
    #expect(hate.allSatisfy { $0.contains("Human Question: Some text") })
    #expect(hate[0].contains("No Hate Speech") && hate[1].contains("No Harassment"))
    #expect(Format.shieldGemma.prompts(for: "x", category: .selfHarm).first?.contains("No Dangerous Content") == true)
    #expect(Format.llamaGuard3.prompts(for: "Some text", category: .selfHarm) == ["Some text"])
  }

  /// ShieldGemma is asked a category's policies in turn until one is violated, and a verdict is
  /// remembered: the same text is not asked again.
  @Test func shieldGemmaAsksTheNextPolicyAndTheJudgeRemembers() async throws {
    let asked = Mutex<Set<String>>([])
    let guardModel = SystemLanguageModel.scripted(
      .answering { conversation in
        let policy = conversation.contains("No Harassment") ? "Harassment" : "Hate"
        asked.withLock { _ = $0.insert(policy) }
        return [policy == "Harassment" ? "Yes" : "No"]
      })
    let judge = GuardModelJudge(format: .shieldGemma) { ModelRunner(guardModel) }
    let text = "You are worthless and everyone at work knows it."
    #expect(try await judge.violation(in: text, mostLikely: .hateAndHarassment) == .hateAndHarassment)
    #expect(asked.withLock { $0 } == ["Hate", "Harassment"], "both policies were asked, hate speech first")
    asked.withLock { $0.removeAll() }
    #expect(try await judge.violation(in: text, mostLikely: .hateAndHarassment) == .hateAndHarassment)
    #expect(asked.withLock { $0 }.isEmpty, "the second verdict comes from what the judge remembers")
  }

  /// How a scripted guard model answers, in its format.
  enum Answer: CaseIterable {
    case unsafe, safe, offConvention
  }

  static func answer(_ answer: Answer, in format: Format) -> String {
    switch (answer, format) {
    case (.unsafe, .llamaGuard3): "unsafe\nS11"
    case (.unsafe, .qwen3Guard): "Safety: Unsafe\nCategories: Suicide & Self-Harm"
    case (.unsafe, .shieldGemma), (.unsafe, .graniteGuardian): "Yes"
    case (.safe, .llamaGuard3): "safe"
    case (.safe, .qwen3Guard): "Safety: Safe\nCategories: None"
    case (.safe, .shieldGemma), (.safe, .graniteGuardian): "No"
    case (.offConvention, _): "Maybe."
    }
  }

  /// A prompt in the classifier's uncertain band goes to the guard model, alone and as its
  /// format wants it; an unsafe answer blocks it under the guard's category (where it has one
  /// of ours), a safe one lets it through, one outside the convention leaves it to the classifier.
  @Test(arguments: Format.allCases, Answer.allCases)
  func aGuardModelSettlesTheUncertainBand(_ format: Format, _ kind: Answer) async throws {
    let prompt = try GuardrailTests.uncertainPrompt()
    guard case .uncertain(let likely, let fallback) = try GuardrailCascade.shipped().assess(prompt) else {
      Issue.record("the prompt is in the uncertain band")
      return
    }
    let asked = Mutex<[String]>([])
    // Multi-character tokens, as a real vocabulary has, so that answers fit the format's budget.
    let tokens = ["Safety: ", "Unsafe", "\nCategories: ", "Suicide & Self-Harm", "None"]
    let guardModel = SystemLanguageModel.scripted(
      .answering(tokens: tokens) { conversation in
        asked.withLock { $0.append(conversation) }
        return [Self.answer(kind, in: format)]
      })
    let model = SystemLanguageModel.scripted(.replying("Fine."))
      .guardrails(.default, judge: GuardModel(guardModel, format: format))
    let session = LanguageModelSession(model: model)
    var violation: (category: String?, stage: String?)?
    do {
      _ = try await session.respond(to: prompt)
    } catch LanguageModelError.guardrailViolation(let context) {
      violation = (context.metadata["category"] as? String, context.metadata["stage"] as? String)
      #expect(session.transcript.isEmpty)
    }
    let conversations = asked.withLock { $0 }
    // (The script is asked at every step, prefixes of the prompt among them.)
    #expect(conversations.contains { $0.contains(prompt) })
    #expect(conversations.allSatisfy { !$0.contains(ModelJudge.instructions) }, "the guard reads no instructions")
    if format == .shieldGemma { #expect(conversations.contains { $0.contains("Human Question: \(prompt)") }) }
    switch kind {
    case .unsafe:
      let expected = format == .llamaGuard3 || format == .qwen3Guard ? GuardrailCategory.selfHarm : likely
      #expect(violation?.stage == "judge" && violation?.category == expected.rawValue)
    case .safe:
      #expect(violation == nil)
      #expect(session.transcript.count == 2)
    case .offConvention:
      #expect((violation != nil) == fallback.isViolation)
      #expect(violation?.stage != "judge")
    }
  }
}
