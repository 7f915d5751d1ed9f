import FoundationModels
import Observation

/// A river the model names, for the guided-generation overloads.
@Generable
struct River {
  @Guide(description: "The river's name")
  var name: String
}

/// The view model of the book's SwiftUI apps: main-actor isolated and observable, holding the
/// session and the state its prompt builders read. Compiled in Swift 6 mode with warnings as
/// errors, so any overload that would send the main-actor builder across actors fails the build.
@MainActor @Observable final class ChatViewModel {
  var session: LanguageModelSession
  let model: SystemLanguageModel
  var topic = "rivers"
  var answers: [String] = []
  var streamed = ""
  var snapshotCount = 0
  let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 16)

  init(model: SystemLanguageModel) {
    self.model = model
    session = LanguageModelSession(model: model, instructions: "You are a helpful assistant.")
  }

  var riverSchema: GenerationSchema {
    GenerationSchema(type: GeneratedContent.self, properties: [.init(name: "name", type: String.self)])
  }

  /// Every `respond` overload, each prompt built from the view model's state.
  func askEveryWay() async throws {
    let builder = try await session.respond(options: options) { "Name one famous \(topic)." }
    answers.append(builder.content)
    let prompt = try await session.respond(to: Prompt("Another of the \(topic)?"), options: options)
    answers.append(prompt.content)
    let string = try await session.respond(to: "One more of the \(topic)?", options: options)
    answers.append(string.content)

    let schemaBuilder = try await session.respond(schema: riverSchema, options: options) { "A \(topic) name." }
    answers.append(try schemaBuilder.content.value(String.self, forProperty: "name"))
    let schemaPrompt = try await session.respond(to: Prompt("A \(topic) name."), schema: riverSchema, options: options)
    answers.append(try schemaPrompt.content.value(String.self, forProperty: "name"))
    let schemaString = try await session.respond(to: "A \(topic) name.", schema: riverSchema, options: options)
    answers.append(try schemaString.content.value(String.self, forProperty: "name"))

    let generableBuilder = try await session.respond(generating: River.self, options: options) {
      "One of the \(topic)."
    }
    answers.append(generableBuilder.content.name)
    let generablePrompt = try await session.respond(
      to: Prompt("One of the \(topic)."), generating: River.self, options: options)
    answers.append(generablePrompt.content.name)
    let generableString = try await session.respond(
      to: "One of the \(topic).", generating: River.self, options: options)
    answers.append(generableString.content.name)
  }

  /// Streams a reply into view-model properties, as a view would show it.
  func stream() async throws {
    streamed = ""
    let stream = session.streamResponse(options: options) { "Tell me about \(topic)." }
    for try await snapshot in stream {
      streamed = snapshot.content
      snapshotCount += 1
    }
    let response = try await stream.collect()
    answers.append(response.content)
  }

  /// The tokens the topic's prompt and the session so far would take.
  func tokenCounts() async throws -> (prompt: Int, transcript: Int) {
    let prompt = try await model.tokenCount(for: Prompt("Name one famous \(topic)."))
    let transcript = try await model.tokenCount(for: session.transcript)
    return (prompt, transcript)
  }
}
