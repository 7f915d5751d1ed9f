import FoundationModels
import Testing

/// The provider of docs/PROVIDERS.md behind the same session code as the local model.
@Suite struct EchoProviderTests {
  @Test func theEchoProviderAnswersThroughASession() async throws {
    let session = LanguageModelSession(model: EchoModel(), instructions: "Repeat after me.")
    let response = try await session.respond(to: "hello there")
    #expect(response.content == "You said: hello there")
    #expect(response.usage.output.totalTokenCount == 4)
    var last = ""
    for try await snapshot in session.streamResponse(to: "again") { last = snapshot.content }
    #expect(last == "You said: again")
    #expect(session.transcript.count == 5)
  }
}
