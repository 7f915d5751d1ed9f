import FoundationModels
import Observation

/// The book's view model exactly as its apps write it (on the default model); compiled, not
/// run, since the tests fetch only the small model.
@MainActor @Observable final class BookViewModel {
  var session = LanguageModelSession(instructions: "You are a helpful assistant.")
  var topic = "rivers"
  var answer = ""

  func ask() async throws {
    let response = try await session.respond(options: GenerationOptions(sampling: .greedy)) {
      "Name one famous \(topic)."
    }
    answer = response.content
  }
}
