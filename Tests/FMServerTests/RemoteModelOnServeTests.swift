import FMServer
import Foundation
import FoundationModels
import RemoteModel
import Testing

/// A pet, for guided generation through the server.
@Generable struct ServedPet {
  @Guide(description: "the pet's name") var name: String
  @Guide(.range(0...30)) var age: Int
}

/// The framework's own remote model pointed at `fm serve`: sessions on a server's model work
/// on ours as they do on llama-server's.
@Suite(.enabled(if: TestServer.modelIsPresent), .serialized)
struct RemoteModelOnServeTests {
  let greedy = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 16)

  func withModel(_ body: (OpenAICompatibleLanguageModel) async throws -> Void) async throws {
    let server = try TestServer.start()
    try await body(OpenAICompatibleLanguageModel(baseURL: server.baseURL, model: TestServer.modelID, maximumRetries: 0))
    await server.stop()
  }

  @Test func theServerListsItsModel() async throws {
    try await withModel { model in
      let listed = try await model.availableModels()
      #expect(listed == [TestServer.modelID])
      // `/v1/models` says how much context a request may fill, as vLLM does.
      #expect(try await model.contextSize() == 2048)
    }
  }

  @Test func aSessionResponds() async throws {
    try await withModel { model in
      let session = LanguageModelSession(model: model, instructions: "Answer briefly.")
      let response = try await session.respond(to: "Name a colour.", options: greedy)
      #expect(!response.content.isEmpty)
      #expect(response.usage.output.totalTokenCount > 0)
      #expect(session.transcript.count == 3)
    }
  }

  @Test func aSecondTurnReportsTheFirstAsCached() async throws {
    try await withModel { model in
      let session = LanguageModelSession(model: model, instructions: "Answer briefly.")
      let first = try await session.respond(to: "Name a colour.", options: greedy)
      let second = try await session.respond(to: "Name another one.", options: greedy)
      // The server finds the first turn's prompt in its cache and says so in the usage.
      #expect(first.usage.input.cachedTokenCount == 0)
      #expect(second.usage.input.cachedTokenCount >= first.usage.input.totalTokenCount)
      #expect(second.usage.input.cachedTokenCount < second.usage.input.totalTokenCount)
    }
  }

  @Test func aStreamGrowsToTheWholeAnswer() async throws {
    try await withModel { model in
      let session = LanguageModelSession(model: model)
      let stream = session.streamResponse(to: "Count to ten.", options: greedy)
      var last = ""
      for try await snapshot in stream {
        #expect(snapshot.content.hasPrefix(last))
        last = snapshot.content
      }
      #expect(try await stream.collect().content == last)
      #expect(!last.isEmpty)
    }
  }

  @Test func guidedGenerationGivesTheType() async throws {
    try await withModel { model in
      let session = LanguageModelSession(model: model)
      let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 60)
      let pet = try await session.respond(to: "Invent a pet.", generating: ServedPet.self, options: options).content
      #expect((0...30).contains(pet.age))
    }
  }
}
