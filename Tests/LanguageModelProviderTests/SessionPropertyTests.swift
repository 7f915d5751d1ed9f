import Foundation
import FoundationModels
import Observation
import Synchronization
import Testing

/// Keys written by hand, the way `@SessionPropertyEntry` expands.
struct ExpertModeKey: SessionPropertyKey {
  static var defaultValue: Bool { false }
}

struct GreetingKey: SessionPropertyKey {
  static var defaultValue: String { "Hello." }
}

extension SessionPropertyValues {
  var isExpert: Bool {
    get { self[ExpertModeKey.self] }
    set { self[ExpertModeKey.self] = newValue }
  }

  var greeting: String {
    get { self[GreetingKey.self] }
    set { self[GreetingKey.self] = newValue }
  }
}

/// A tool that turns expert mode on.
struct UnlockExpertMode: Tool {
  @Generable
  struct Arguments {
    var key: String
  }

  let name = "unlock"
  let description = "Turns on expert mode."
  @SessionProperty(\.isExpert) var isExpert

  func call(arguments: Arguments) async throws -> String {
    isExpert = true
    return "unlocked"
  }
}

/// A tool that clears the conversation before the running turn's prompt (the last entry of
/// the history its turn sees).
struct ClearHistory: Tool {
  @Generable
  struct Arguments {
    var key: String
  }

  let name = "clear"
  let description = "Clears the earlier conversation."
  @SessionProperty(\.history) var history

  func call(arguments: Arguments) async throws -> String {
    guard case .prompt? = history.last else { return "no prompt" }
    history = history.suffix(1)
    return "cleared"
  }
}

/// A tree that reads session properties.
struct ExpertTree: DynamicInstructions {
  @SessionProperty(\.isExpert) var isExpert
  @SessionProperty(\.greeting) var greeting

  var body: some DynamicInstructions {
    Instructions(greeting)
    UnlockExpertMode()
    if isExpert {
      Lookup("flights")
    }
  }
}

/// Session properties: per-session values that trees and tools read and write.
@Suite struct SessionPropertyTests {
  @Test func aToolWriteUnlocksAToolInTheNextRoundOfTheSameTurn() async throws {
    let model = ScriptedProvider([call("unlock"), call("flights"), answer("Booked.")])
    let session = LanguageModelSession(model: model, dynamicInstructions: ExpertTree())
    let response = try await session.respond(to: "Book")

    #expect(response.content == "Booked.")
    #expect(model.script.requests.map(\.toolNames) == [["unlock"], ["unlock", "flights"], ["unlock", "flights"]])
    #expect(session.properties.isExpert, "the tool wrote this session's value")
  }

  @Test func appCodeWritesPropertiesThatTheNextEvaluationReads() async throws {
    let model = ScriptedProvider([answer("A."), answer("B.")])
    let session = LanguageModelSession(model: model, dynamicInstructions: ExpertTree())
    let other = LanguageModelSession(model: ScriptedProvider([]), dynamicInstructions: ExpertTree())
    _ = try await session.respond(to: "One")
    session.properties.greeting = "Be brief."
    session.properties.isExpert = true
    _ = try await session.respond(to: "Two")

    #expect(model.script.requests.map(\.instructionsText) == ["Hello.", "Be brief."])
    #expect(model.script.requests.map(\.toolNames) == [["unlock"], ["unlock", "flights"]])
    #expect(!other.properties.isExpert && other.properties.greeting == "Hello.", "each session has its own values")
  }

  @Test func outsideASessionAWrapperReadsTheDefault() {
    let tree = ExpertTree()
    #expect(tree.greeting == "Hello.")
    #expect(!tree.isExpert)
  }

  @Test func writingAPropertyNotifiesObservers() {
    let session = LanguageModelSession(model: ScriptedProvider([]), dynamicInstructions: ExpertTree())
    let changed = Mutex(false)
    withObservationTracking {
      _ = session.properties.isExpert
    } onChange: {
      changed.withLock { $0 = true }
    }
    session.properties.isExpert = true
    #expect(changed.withLock { $0 })
  }

  @Test func historyIsTheConversationAndWritingItTrimsWhatTheModelReceives() async throws {
    let model = ScriptedProvider([answer("A."), answer("B."), answer("C.")])
    let session = LanguageModelSession(model: model, dynamicInstructions: ExpertTree())
    _ = try await session.respond(to: "One")
    _ = try await session.respond(to: "Two")
    #expect(session.properties.history.map(\.kindName) == ["prompt", "response", "prompt", "response"])

    session.properties.history = session.properties.history.suffix(2)
    _ = try await session.respond(to: "Three")

    let last = try #require(model.script.requests.last)
    #expect(last.transcript.map(\.kindName) == ["instructions", "prompt", "response", "prompt"])
    #expect(session.transcript.map(\.kindName) == ["instructions", "prompt", "response", "prompt", "response"])
    #expect(last.instructionsText == "Hello.", "the instructions stay")
  }

  @Test func aHistoryWriteFromOutsideTheTurnWhileRespondingIsRefusedAndFailsTheTurn() async throws {
    let slow = Round([.response(action: .appendText("Done.", tokenCount: 1))], pause: .milliseconds(300))
    let model = ScriptedProvider([answer("A."), slow])
    let session = LanguageModelSession(model: model, instructions: "Tools.")
    _ = try await session.respond(to: "One")
    let before = session.transcript

    let turn = Task { try await session.respond(to: "Two") }
    while !session.isResponding { try await Task.sleep(for: .milliseconds(5)) }
    session.properties.history = []
    #expect(session.transcript == before, "the write was refused")
    await #expect(throws: LanguageModelSession.Error.transcriptMutationWhileResponding) { try await turn.value }
    #expect(session.transcript == before, "the failed turn left nothing")
    #expect(!session.isResponding)
  }

  @Test func theTurnsOwnToolMayRewriteTheHistoryAndTheNextRoundSendsIt() async throws {
    let model = ScriptedProvider([answer("A."), call("clear"), answer("Cleared.")])
    let session = LanguageModelSession(model: model, tools: [ClearHistory()], instructions: "Tools.")
    _ = try await session.respond(to: "One")
    let response = try await session.respond(to: "Clear it")

    #expect(response.content == "Cleared.")
    let requests = model.script.requests
    #expect(requests[1].transcript.map(\.kindName) == ["instructions", "prompt", "response", "prompt"])
    #expect(requests[2].transcript.map(\.kindName) == ["instructions", "prompt", "toolCalls", "toolOutput"])
    #expect(
      session.transcript.map(\.kindName) == ["instructions", "prompt", "toolCalls", "toolOutput", "response"],
      "the turn's entries follow the rewritten history")
    #expect(session.transcript[3].description == "(Tool output: clear) cleared", "the tool saw the turn's prompt")
  }

  @Test func settingTheRootDynamicInstructionsOfAFixedSessionMakesItDynamic() async throws {
    let model = ScriptedProvider([answer("A."), answer("B.")])
    let session = LanguageModelSession(model: model, tools: [Lookup("weather")], instructions: "Fixed.")
    _ = try await session.respond(to: "One")
    let fixed = session.properties.rootDynamicInstructions
    session.properties.rootDynamicInstructions = ExpertTree()
    _ = try await session.respond(to: "Two")

    let requests = model.script.requests
    #expect(requests.map(\.instructionsText) == ["Fixed.", "Hello."])
    #expect(requests.map(\.toolNames) == [["weather"], ["unlock"]])
    #expect(session.transcript.map(\.kindName) == ["instructions", "prompt", "response", "prompt", "response"])

    // The fixed session read as a tree of its instructions and tools.
    let copy = LanguageModelSession(model: model, dynamicInstructions: AnyDynamicInstructions(fixed))
    #expect(copy.transcript.first?.instructionsText == "Fixed.")
    guard case .instructions(let entry)? = copy.transcript.first else { return }
    #expect(entry.toolDefinitions.map(\.name) == ["weather"])
  }
}

extension SessionPropertyValues {
  @SessionPropertyEntry var isExpertMode: Bool = false
  @SessionPropertyEntry var nickname: String?
  @SessionPropertyEntry var favourites: [String] = ["tea"]
}

/// Properties declared with the macro, used the way an app uses them.
@Suite struct SessionPropertyEntryTests {
  struct Reader: DynamicInstructions {
    @SessionProperty(\.isExpertMode) var isExpertMode
    @SessionProperty(\.nickname) var nickname
    @SessionProperty(\.favourites) var favourites

    var body: some DynamicInstructions {
      Instructions("expert \(isExpertMode), \(nickname ?? "anonymous"), \(favourites.joined(separator: "+"))")
    }
  }

  @Test func entriesStartAtTheirDefaultAndKeepWhatIsWritten() async throws {
    let model = ScriptedProvider([answer("A."), answer("B.")])
    let session = LanguageModelSession(model: model, dynamicInstructions: Reader())
    #expect(!session.properties.isExpertMode && session.properties.nickname == nil)
    _ = try await session.respond(to: "One")
    session.properties.isExpertMode = true
    session.properties.nickname = "Ada"
    session.properties.favourites.append("cake")
    _ = try await session.respond(to: "Two")
    #expect(
      model.script.requests.map(\.instructionsText) == ["expert false, anonymous, tea", "expert true, Ada, tea+cake"])
  }
}
