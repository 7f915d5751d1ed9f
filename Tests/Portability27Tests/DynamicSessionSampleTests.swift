import Foundation
import FoundationModels
import Testing

extension SessionPropertyValues {
  /// Which step of the cooking flow the person is on.
  @SessionPropertyEntry var cookingStep: CookingStep = .discover
}

enum CookingStep: Sendable {
  case discover
  case cook
}

/// Looks up what is in the pantry.
struct SearchInventory: Tool {
  let name = "searchInventory"
  let description = "Finds an ingredient in the pantry."

  @Generable
  struct Arguments {
    @Guide(description: "The ingredient to look for")
    var ingredient: String
  }

  func call(arguments: Arguments) async throws -> String {
    "\(arguments.ingredient): 2 left"
  }
}

/// Instructions that follow the app's state, the way the 27 documentation's cooking app
/// declares them: re-evaluated before every request.
struct CookingInstructions: DynamicInstructions {
  @SessionProperty(\.cookingStep) var step

  var body: some DynamicInstructions {
    Instructions("You are a cooking assistant.")
    switch step {
    case .discover:
      Instructions("Help the person choose a recipe.")
    case .cook:
      Instructions("Guide the person one step at a time.")
      SearchInventory()
    }
  }
}

/// A profile per step: a creative temperature while choosing, a short window of history while
/// cooking.
struct CookingProfile: LanguageModelSession.DynamicProfile {
  let model: MyLanguageModel
  @SessionProperty(\.cookingStep) var step

  var body: some DynamicProfile {
    if step == .discover {
      Profile {
        CookingInstructions()
      }
      .model(model)
      .temperature(0.8)
    } else {
      Profile {
        CookingInstructions()
      }
      .model(model)
      .temperature(0.1)
      .historyTransform { history in
        Array(history.suffix(2))
      }
    }
  }
}

@Suite struct DynamicSessionSampleTests {
  @Test func dynamicInstructionsFollowTheSessionsProperties() async throws {
    let model = MyLanguageModel(capabilities: [.toolCalling])
    let session = LanguageModelSession(model: model, dynamicInstructions: CookingInstructions())
    _ = try await session.respond(to: "What can I make?")
    session.properties.cookingStep = .cook
    _ = try await session.respond(to: "Start cooking")
    let requests = model.log.all
    #expect(requests.count == 2)
    #expect(requests[0].enabledToolDefinitions.isEmpty)
    #expect(requests[1].enabledToolDefinitions.map(\.name) == ["searchInventory"])
    #expect(instructionsText(of: requests[0]).contains("choose a recipe"))
    #expect(instructionsText(of: requests[1]).contains("one step at a time"))
  }

  @Test func aProfileSetsTheOptionsAndTransformsOnlyWhatTheModelSees() async throws {
    let model = MyLanguageModel(capabilities: [.toolCalling])
    let session = LanguageModelSession(profile: CookingProfile(model: model))
    _ = try await session.respond(to: "first")
    _ = try await session.respond(to: "second")
    session.properties.cookingStep = .cook
    _ = try await session.respond(to: "third")
    let requests = model.log.all
    #expect(requests.map(\.generationOptions.temperature) == [0.8, 0.8, 0.1])
    // The last request sent what the transform returned: the last two entries of its whole
    // transcript (the previous answer and the new prompt; the instructions were dropped).
    let seen = requests[2].transcript
    #expect(seen.count == 2)
    #expect(seen.allSatisfy { if case .instructions = $0 { false } else { true } })
    // The session's own transcript keeps every turn.
    #expect(session.transcript.filter { if case .prompt = $0 { true } else { false } }.count == 3)
  }

  private func instructionsText(of request: LanguageModelExecutorGenerationRequest) -> String {
    guard case .instructions(let instructions) = request.transcript.first else { return "" }
    return instructions.segments.compactMap { segment -> String? in
      if case .text(let text) = segment { text.content } else { nil }
    }.joined(separator: "\n")
  }
}
