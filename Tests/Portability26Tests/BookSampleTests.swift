import FMTestSupport
import Foundation
import FoundationModels
import Testing

/// The book's code (chapters on streaming, tuning and the context window), written as it
/// writes it against the 26.4 API, run on our local model and on a server's model over the
/// OpenAI protocol (`SampleModel`). Only the session's model is chosen here; the rest is the
/// book's. Generated text differs between models and CPUs: the checks are properties.
@Suite(.serialized) struct BookSampleTests {
  /// A session as the book makes one, on `model`: the 26.4 initializer for the system model,
  /// the 27 one for any other.
  func session(_ model: any LanguageModel, instructions: String) -> LanguageModelSession {
    if let system = model as? SystemLanguageModel {
      return LanguageModelSession(model: system, instructions: instructions)
    }
    return LanguageModelSession(model: model, instructions: instructions)
  }

  /// The streaming chapter: a loop over snapshots, each the whole response so far.
  @Test(arguments: SampleModel.available)
  func theStreamingLoopShowsAGrowingResponse(_ kind: SampleModel) async throws {
    try await kind.with { model in
      let session = session(model, instructions: "You are a helpful assistant. Answer briefly.")
      var partialResponse = ""
      var snapshots = 0
      let options = GenerationOptions(temperature: 0, maximumResponseTokens: 24)
      let stream = session.streamResponse(to: "Give me a one-paragraph bedtime story.", options: options)
      for try await partial in stream {
        #expect(partial.content.hasPrefix(partialResponse), "a snapshot is the whole response so far")
        partialResponse = partial.content
        snapshots += 1
      }
      #expect(!partialResponse.isEmpty && snapshots > 1)
      // The prompt and the response are in the transcript after the instructions.
      #expect(session.transcript.count == 3)
      #expect(!session.isResponding)
    }
  }

  /// The tuning chapter: a temperature per prompt, and each sampling mode.
  @Test(arguments: SampleModel.available)
  func everySamplingModeAnswers(_ kind: SampleModel) async throws {
    try await kind.with { model in
      let session = session(model, instructions: "Answer in one short sentence.")
      let modes: [GenerationOptions] = [
        GenerationOptions(temperature: 0.5, maximumResponseTokens: 12),
        GenerationOptions(sampling: .greedy, maximumResponseTokens: 12),
        GenerationOptions(sampling: .random(top: 10, seed: 42), maximumResponseTokens: 12),
        GenerationOptions(
          sampling: .random(probabilityThreshold: 0.9, seed: 42), temperature: 0.7, maximumResponseTokens: 12),
      ]
      for options in modes {
        let response = try await session.respond(to: "Name a colour of the sea.", options: options)
        #expect(!response.content.isEmpty)
      }
      #expect(session.transcript.count == 1 + 2 * modes.count)
    }
  }

  /// The context-window chapter: the transcript filtered into text, then a new session from a
  /// transcript of the instructions and a summary, which goes on with the conversation.
  @Test(arguments: SampleModel.available)
  func aSummarisedTranscriptStartsANewSession(_ kind: SampleModel) async throws {
    try await kind.with { model in
      let instructions = "You are a helpful assistant. Answer briefly."
      let first = session(model, instructions: instructions)
      let options = GenerationOptions(sampling: .greedy, maximumResponseTokens: 16)
      _ = try await first.respond(to: "What is a lighthouse?", options: options)
      _ = try await first.respond(to: "Who keeps one?", options: options)

      var conversation = ""
      for entry in first.transcript {
        switch entry {
        case .prompt(let prompt): conversation += "User: \(Self.text(of: prompt.segments))\n"
        case .response(let response): conversation += "Assistant: \(Self.text(of: response.segments))\n"
        default: break
        }
      }
      #expect(conversation.contains("User: What is a lighthouse?"))
      #expect(conversation.components(separatedBy: "Assistant: ").count == 3)

      let summary = try await session(model, instructions: "Summarise this conversation in one sentence.")
        .respond(to: conversation, options: options).content
      let condensed = Transcript(entries: [
        .instructions(
          Transcript.Instructions(
            segments: [.text(.init(content: instructions + "\nThe conversation so far: " + summary))],
            toolDefinitions: []))
      ])
      let next = LanguageModelSession(model: model, transcript: condensed)
      let answer = try await next.respond(to: "And what does it warn ships of?", options: options)
      #expect(!answer.content.isEmpty)
      #expect(next.transcript.count == 3)
    }
  }

  /// The context-window chapter's error: a prompt longer than the context window, caught as
  /// the book catches it; the session goes on.
  @Test(.enabled(if: SampleModel.local.isAvailable))
  func aPromptTooLongForTheWindowIsCaughtAsTheBookCatchesIt() async throws {
    try await SampleModel.local.with(contextSize: 256) { model in
      let session = session(model, instructions: "Answer briefly.")
      do {
        _ = try await session.respond(to: String(repeating: "The tide comes in and goes out. ", count: 80))
        Issue.record("a prompt of about 640 tokens fit a window of 256")
      } catch LanguageModelSession.GenerationError.exceededContextWindowSize {
        #expect(session.transcript.count == 1, "the failed turn left the transcript as it was")
      }
      let answer = try await session.respond(
        to: "Hello.", options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 8))
      #expect(!answer.content.isEmpty)
    }
  }

  static func text(of segments: [Transcript.Segment]) -> String {
    segments.compactMap { segment -> String? in
      if case .text(let text) = segment { text.content } else { nil }
    }.joined()
  }
}
