import Foundation
import FoundationModels
import Synchronization
import Testing

/// A tool named at creation, for trees that enable different tools.
struct Lookup: Tool {
  @Generable
  struct Arguments {
    var key: String
  }

  let name: String
  var description: String { "Looks up a \(name)." }
  /// Runs when the model calls the tool, before it answers.
  var onCall: @Sendable () -> Void = {}

  init(_ name: String, onCall: @escaping @Sendable () -> Void = {}) {
    self.name = name
    self.onCall = onCall
  }

  func call(arguments: Arguments) async throws -> String {
    onCall()
    return "\(name) \(arguments.key)"
  }
}

/// A flag that tests flip between invocations.
final class Switch: Sendable {
  private let value = Mutex(false)
  var isOn: Bool {
    get { value.withLock { $0 } }
    set { value.withLock { $0 = newValue } }
  }
}

/// A tree written the way an app (or Apple's `Skills`) writes one.
struct Assistant: DynamicInstructions {
  let expert: Switch
  let cities: [String]

  var body: some DynamicInstructions {
    Instructions("You are a travel assistant.")
    Lookup("weather")
    if expert.isOn {
      Instructions("Answer tersely.")
      [Lookup("flights"), Lookup("hotels")] as [any Tool]
    } else {
      Instructions("Explain each step.")
    }
    ForEach(Array(cities.enumerated()), id: \.element) { index, city in
      Instructions("City \(index): \(city)")
    }
  }
}

/// A tree with the optional and erased forms.
struct Optionals: DynamicInstructions {
  let extra: Switch

  @DynamicInstructionsBuilder var extraPart: some DynamicInstructions {
    if extra.isOn {
      Lookup("extra")
    }
  }

  var body: some DynamicInstructions {
    AnyDynamicInstructions(Instructions("Base."))
    AnyDynamicInstructions(erasing: extraPart)
    EmptyDynamicInstructions()
  }
}

/// A skill, identified by its name.
struct Skill: Identifiable {
  var name: String
  var id: String { name }
}

/// The shape of Apple's `Skills` from `foundation-models-utilities`.
struct Skills: DynamicInstructions {
  let skills: [Skill]

  var body: some DynamicInstructions {
    Instructions("Skills:")
    DynamicInstructions.ForEach(Array(skills.enumerated()), id: \.element.name) { index, skill in
      Instructions("\(index + 1). \(skill.name)")
    }
    ForEach(skills) { skill in
      Lookup(skill.name)
    }
  }
}

/// A tree whose `unlock` tool turns on the expert branch (and its tools) when the model calls it.
struct UnlockingTree: DynamicInstructions {
  let expert: Switch

  var body: some DynamicInstructions {
    Assistant(expert: expert, cities: [])
    Lookup("unlock") { expert.isOn = true }
  }
}

extension Transcript.Entry {
  /// The text of an instructions entry, nil for other entries.
  var instructionsText: String? {
    guard case .instructions(let instructions) = self else { return nil }
    return instructions.segments.map(\.description).joined(separator: "\n")
  }
}

extension LanguageModelExecutorGenerationRequest {
  var instructionsText: String? { transcript.first?.instructionsText }
  var toolNames: [String] { enabledToolDefinitions.map(\.name) }
}

func answer(_ text: String) -> Round {
  Round([.response(action: .appendText(text, tokenCount: 1))])
}

func call(_ tool: String, id: String = "c1") -> Round {
  Round([.toolCalls(action: .toolCall(id: id, name: tool, action: .appendArguments(#"{"key":"k"}"#, tokenCount: 3)))])
}

/// Dynamic instructions: every model invocation gets the instructions and tools of a fresh
/// evaluation of the tree.
@Suite struct DynamicInstructionsTests {
  @Test func theRequestCarriesTheTreesInstructionsAndToolsAndABranchSwitchesThem() async throws {
    let expert = Switch()
    let model = ScriptedProvider([answer("One."), answer("Two.")])
    let session = LanguageModelSession(
      model: model, dynamicInstructions: Assistant(expert: expert, cities: ["Oslo", "Rome"]))

    _ = try await session.respond(to: "Hi")
    expert.isOn = true
    _ = try await session.respond(to: "Again")

    let requests = model.script.requests
    try #require(requests.count == 2)
    #expect(
      requests[0].instructionsText
        == "You are a travel assistant.\nExplain each step.\nCity 0: Oslo\nCity 1: Rome")
    #expect(requests[0].toolNames == ["weather"])
    #expect(
      requests[1].instructionsText
        == "You are a travel assistant.\nAnswer tersely.\nCity 0: Oslo\nCity 1: Rome")
    #expect(requests[1].toolNames == ["weather", "flights", "hotels"])
    guard case .instructions(let entry)? = requests[1].transcript.first else { return }
    #expect(entry.toolDefinitions.map(\.name) == ["weather", "flights", "hotels"])
    #expect(requests[1].transcript.map(\.kindName) == ["instructions", "prompt", "response", "prompt"])
    #expect(session.transcript.first?.instructionsText == requests[1].instructionsText, "the latest evaluation")
  }

  @Test func eachRoundOfAToolLoopIsEvaluatedAgain() async throws {
    let expert = Switch()
    let model = ScriptedProvider([call("unlock"), call("flights"), answer("Booked.")])
    let session = LanguageModelSession(model: model, dynamicInstructions: UnlockingTree(expert: expert))
    let response = try await session.respond(to: "Book a flight")

    #expect(response.content == "Booked.")
    let requests = model.script.requests
    let unlocked = ["weather", "flights", "hotels", "unlock"]
    #expect(requests.map(\.toolNames) == [["weather", "unlock"], unlocked, unlocked])
    #expect(requests.map { $0.instructionsText?.contains("tersely") } == [false, true, true])
    #expect(
      response.transcriptEntries.map(\.kindName) == [
        "prompt", "toolCalls", "toolOutput", "toolCalls", "toolOutput", "response",
      ])
  }

  @Test func historyFollowsTheInstructions() async throws {
    let history: [Transcript.Entry] = [
      .prompt(Transcript.Prompt(segments: [.text(Transcript.TextSegment(content: "Before"))])),
      .response(Transcript.Response(assetIDs: [], segments: [.text(Transcript.TextSegment(content: "Yes"))])),
    ]
    let model = ScriptedProvider([answer("Now.")])
    let session = LanguageModelSession(
      model: model, dynamicInstructions: Optionals(extra: Switch()), history: history)
    #expect(session.transcript.map(\.kindName) == ["instructions", "prompt", "response"])

    _ = try await session.respond(to: "After")
    let request = try #require(model.script.requests.first)
    #expect(request.transcript.map(\.kindName) == ["instructions", "prompt", "response", "prompt"])
    #expect(request.instructionsText == "Base.")
    #expect(request.toolNames.isEmpty)
  }

  @Test func anotherSessionsTranscriptAsHistoryKeepsOnlyItsConversation() async throws {
    let earlier = LanguageModelSession(model: ScriptedProvider([answer("Yes.")]), instructions: "Old instructions.")
    _ = try await earlier.respond(to: "Before")
    let session = LanguageModelSession(
      model: ScriptedProvider([]), dynamicInstructions: Optionals(extra: Switch()), history: earlier.transcript)
    #expect(session.transcript.map(\.kindName) == ["instructions", "prompt", "response"])
    #expect(session.transcript.first?.instructionsText == "Base.")
  }

  @Test func anIfWithoutElseEnablesItsContentOnlyWhenTrue() async throws {
    let extra = Switch()
    let model = ScriptedProvider([answer("A."), answer("B.")])
    let session = LanguageModelSession(model: model, dynamicInstructions: Optionals(extra: extra))
    _ = try await session.respond(to: "One")
    extra.isOn = true
    _ = try await session.respond(to: "Two")
    #expect(model.script.requests.map(\.toolNames) == [[], ["extra"]])
  }

  @Test func forEachEvaluatesItsContentForEachElementInOrder() async throws {
    let model = ScriptedProvider([answer("Ok.")])
    let session = LanguageModelSession(
      model: model, dynamicInstructions: Skills(skills: [Skill(name: "search"), Skill(name: "math")]))
    _ = try await session.respond(to: "Go")
    let request = try #require(model.script.requests.first)
    #expect(request.instructionsText == "Skills:\n1. search\n2. math")
    #expect(request.toolNames == ["search", "math"])
  }

  @Test func aCallToAToolTheCurrentTreeDoesNotEnableIsAParsingError() async throws {
    let model = ScriptedProvider([call("flights")])
    let session = LanguageModelSession(
      model: model, dynamicInstructions: Assistant(expert: Switch(), cities: []))
    await #expect(throws: GeneratedContent.ParsingError.self) { try await session.respond(to: "Fly") }
  }
}
