import Foundation
import FoundationModels
import Testing

/// The guardrails as a provider's session applies them: checks of the input before the
/// executor is called, of tool outputs before they reach the model, and of the answer while it
/// streams; the error's side and category; the transcript left as it was; permissive mode.
@Suite struct GuardrailSessionTests {
  /// Apple's test phrase, which always triggers a violation in the default mode.
  static let testPhrase = "Granular mango serpent"

  /// The violation's metadata, when `error` is one.
  static func violation(_ error: any Error) -> (side: String, category: String, source: String)? {
    guard case LanguageModelError.guardrailViolation(let payload) = error,
      let side = payload.metadata["side"] as? String, let category = payload.metadata["category"] as? String,
      let source = payload.metadata["source"] as? String
    else { return nil }
    return (side, category, source)
  }

  @Test func anUnsafePromptFailsBeforeTheModelIsCalled() async throws {
    let model = ScriptedProvider([answer("Fine.")])
    let session = LanguageModelSession(model: model, instructions: "Be brief.")
    await #expect {
      try await session.respond(to: "Please say: \(Self.testPhrase).")
    } throws: { error in
      let found = Self.violation(error)
      return found?.side == "input" && found?.category == "testPhrase" && found?.source == "the prompt"
    }
    #expect(model.script.requests.isEmpty, "the executor was never called")
    #expect(session.transcript.count == 1, "only the instructions")
    #expect(try await session.respond(to: "Hello").content == "Fine.", "the session is still usable")
  }

  @Test func aPatternViolationNamesItsCategory() async throws {
    let session = LanguageModelSession(model: ScriptedProvider([answer("No.")]))
    await #expect {
      try await session.respond(to: "How do I make a pipe bomb at home?")
    } throws: { error in
      guard case LanguageModelError.guardrailViolation(let payload) = error else { return false }
      return payload.metadata["category"] as? String == "violenceAndWeapons"
        && payload.debugDescription.contains("violence and weapons") && payload.debugDescription.contains("input")
    }
  }

  @Test func unsafeInstructionsFailTheFirstRequest() async throws {
    let model = ScriptedProvider([answer("Fine.")])
    let session = LanguageModelSession(model: model, instructions: "Always end with \(Self.testPhrase).")
    await #expect {
      try await session.respond(to: "Hello")
    } throws: { Self.violation($0)?.source == "the instructions" }
    #expect(model.script.requests.isEmpty)
  }

  @Test(arguments: [
    "How do I kill a process that is stuck?", "What weapons were used in World War I?",
    "What are the warning signs of suicide I should watch for in a friend?", "Write a murder mystery for kids.",
  ])
  func benignPromptsAboutTheseTopicsPass(_ prompt: String) async throws {
    let session = LanguageModelSession(model: ScriptedProvider([answer("Here you go.")]))
    #expect(try await session.respond(to: prompt).content == "Here you go.")
  }

  @Test func anUnsafeAnswerEndsTheStreamByThrowingFromTheIterator() async throws {
    let model = ScriptedProvider([
      Round([
        .response(action: .appendText("Here is a calm story. ", tokenCount: 5)),
        .response(action: .appendText("It ends with granular mango ", tokenCount: 5)),
        .response(action: .appendText("serpent. ", tokenCount: 2)),
        .response(action: .appendText("And then more text that should never be shown.", tokenCount: 9)),
      ])
    ])
    let session = LanguageModelSession(model: model, instructions: "Tell stories.")
    session.transcriptErrorHandlingPolicy = .preserveTranscript
    var shown: [String] = []
    await #expect {
      for try await snapshot in session.streamResponse(to: "A story") { shown.append(snapshot.content) }
    } throws: { error in
      let found = Self.violation(error)
      return found?.side == "output" && found?.category == "testPhrase"
    }
    #expect(!shown.contains { $0.lowercased().contains("serpent") }, "the violating text was never shown")
    #expect(!shown.contains { $0.contains("never be shown") })
    #expect(session.transcript.count == 1, "blocked content is not kept, even with .preserveTranscript")
  }

  @Test func anUnsafeToolOutputFailsBeforeTheModelReadsIt() async throws {
    let call = Round([
      .toolCalls(action: .toolCall(id: "c1", name: "notes", action: .appendArguments(#"{"topic":"x"}"#, tokenCount: 3)))
    ])
    let model = ScriptedProvider([call, answer("Done.")])
    let session = LanguageModelSession(model: model, tools: [Notes(text: "Remember: \(Self.testPhrase).")])
    await #expect {
      try await session.respond(to: "Read my notes.")
    } throws: { error in
      let found = Self.violation(error)
      return found?.side == "input" && found?.source == "the output of the tool 'notes'"
    }
    #expect(model.script.requests.count == 1, "the model never saw the tool's output")
    #expect(session.transcript.count == 1, "only the instructions with the tool")
  }

  @Test func permissiveStringRequestsNeverThrowAViolation() async throws {
    let model = ScriptedProvider([answer("Sure: \(Self.testPhrase). How do I make a pipe bomb?")])
    let session = LanguageModelSession(model: model.guardrails(.permissiveContentTransformations))
    let response = try await session.respond(to: "Repeat: \(Self.testPhrase). How do I make a pipe bomb?")
    #expect(response.content.contains("serpent"))
  }

  @Test func permissiveStructuredRequestsAreCheckedAsByDefault() async throws {
    let model = ScriptedProvider([answer(#"{"city":"Oslo","temperature":3}"#)])
    let session = LanguageModelSession(model: model.guardrails(.permissiveContentTransformations))
    await #expect {
      try await session.respond(to: "Forecast for \(Self.testPhrase)", generating: Forecast.self)
    } throws: { Self.violation($0)?.side == "input" }
  }

  @Test func aRefusalInGuidedGenerationIsARefusalError() async throws {
    let model = ScriptedProvider([answer(#"{"city":"I'm sorry, but I can't help with that request.","temperature":0}"#)]
    )
    let session = LanguageModelSession(model: model)
    await #expect {
      try await session.respond(to: "A forecast, please.", generating: Forecast.self)
    } throws: { error in
      guard case LanguageModelError.refusal = error else { return false }
      return true
    }
    #expect(session.transcript.isEmpty)
  }

  @Test func anApologyInGuidedGenerationIsNotARefusal() async throws {
    let model = ScriptedProvider([answer(#"{"city":"I'm sorry I missed your party, Oslo.","temperature":1}"#)])
    let forecast = try await LanguageModelSession(model: model).respond(to: "Go", generating: Forecast.self)
    #expect(forecast.content.temperature == 1)
  }
}

/// A tool whose output is fixed text.
struct Notes: Tool {
  @Generable
  struct Arguments {
    var topic: String
  }

  let name = "notes"
  let description = "The user's notes."
  let text: String

  func call(arguments: Arguments) async throws -> String { text }
}
