import Foundation
import Testing

@testable import FoundationModels

/// The turn's steps without a model, a tool or the guardrails: what a driver is told to do, in
/// which order, and when the turn ends or is refused.
@Suite struct TurnStepsTests {
  /// A model the steps never call: they only read its capabilities.
  struct UncalledModel: LanguageModel {
    struct Executor: LanguageModelExecutor {
      struct Configuration: Hashable, Sendable {}
      init(configuration: Configuration) {}
      func respond(
        to request: LanguageModelExecutorGenerationRequest, model: UncalledModel,
        streamingInto channel: LanguageModelExecutorGenerationChannel
      ) async throws {
        Issue.record("the steps called the model")
      }
    }
    var capabilities: LanguageModelCapabilities {
      LanguageModelCapabilities(capabilities: [.guidedGeneration, .toolCalling])
    }
    var executorConfiguration: Executor.Configuration { Executor.Configuration() }
  }

  static let instructions = Transcript.Entry.instructions(
    Transcript.Instructions(segments: [.text(.init(content: "Use tools."))], toolDefinitions: []))
  static let prompt = Transcript.Entry.prompt(Transcript.Prompt(segments: [.text(.init(content: "Find Dune."))]))
  static let conversation: ArraySlice<Transcript.Entry> = [prompt]

  static func setup() -> InvocationSetup {
    InvocationSetup(
      runner: ModelRunner(UncalledModel()), instructions: instructions, tools: [BookLookup()],
      options: GenerationOptions(), contextOptions: ContextOptions())
  }

  static func steps(schema: GenerationSchema? = nil) -> TurnSteps {
    TurnSteps(
      request: TurnRequest(
        format: ContentFormat(schema: schema), options: GenerationOptions(), contextOptions: ContextOptions(),
        metadata: [:]),
      prompt: prompt)
  }

  static func call(_ title: String, id: String = UUID().uuidString) -> Transcript.ToolCalls {
    Transcript.ToolCalls([
      Transcript.ToolCall(
        id: id, toolName: "BookLookup", arguments: GeneratedContent(properties: ["title": title]))
    ])
  }

  static func output(for calls: Transcript.ToolCalls) -> [Transcript.Entry] {
    calls.map { .toolOutput(Transcript.ToolOutput(id: $0.id, toolName: $0.toolName, segments: [.text(.init(content: "found"))])) }
  }

  static func answer(_ text: String) -> Transcript.Entry {
    .response(Transcript.Response(segments: [.text(.init(content: text))]))
  }

  /// A short name of a step, for comparing sequences.
  static func name(_ step: TurnStep) -> String {
    switch step {
    case .prepare: "prepare"
    case .runHooks: "hooks"
    case .checkInput(_, let source): "check \(source)"
    case .invoke: "invoke"
    case .runTools: "tools"
    case .finish: "finish"
    }
  }

  @Test func aToolRoundThenAnAnswer() throws {
    var steps = Self.steps()
    var names = [Self.name(steps.start())]
    var step = try steps.prepared(Self.setup(), conversation: Self.conversation)
    names.append(Self.name(step))
    step = try steps.next(conversation: Self.conversation)
    names.append(Self.name(step))
    step = try steps.next(conversation: Self.conversation)
    guard case .invoke(let first) = step else { throw Failure("expected an invocation, got \(step)") }
    names.append(Self.name(step))
    #expect(first.transcript.map(\.kindName) == ["instructions", "prompt"])
    #expect(first.enabledToolDefinitions.map(\.name) == ["BookLookup"])

    let calls = Self.call("Dune")
    step = try steps.invoked([.toolCalls(calls)], usage: nil, conversation: Self.conversation)
    guard case .runTools(let asked) = step else { throw Failure("expected the tools, got \(step)") }
    names.append(Self.name(step))
    #expect(asked.map(\.id) == calls.map(\.id))
    step = try steps.toolsRan(calls, outputs: Self.output(for: calls), conversation: Self.conversation)
    names.append(Self.name(step))
    step = try steps.next(conversation: Self.conversation)
    names.append(Self.name(step))

    // The second round: the instructions did not change, so only the invocation follows.
    step = try steps.prepared(Self.setup(), conversation: Self.conversation)
    guard case .invoke(let second) = step else { throw Failure("expected an invocation, got \(step)") }
    names.append(Self.name(step))
    #expect(second.transcript.map(\.kindName) == ["instructions", "prompt", "toolCalls", "toolOutput"])
    step = try steps.invoked([Self.answer("Dune is there.")], usage: nil, conversation: Self.conversation)
    guard case .finish(let result) = step else { throw Failure("expected the end, got \(step)") }
    names.append(Self.name(step))

    #expect(
      names == [
        "prepare", "check the instructions", "check the prompt", "invoke", "tools",
        "check the output of the tool 'BookLookup'", "prepare", "invoke", "finish",
      ])
    #expect(result.text == "Dune is there.")
    #expect(result.entries.map(\.kindName) == ["toolCalls", "toolOutput", "response"])
    #expect(result.prompt?.id == Self.prompt.id)
  }

  @Test func aThirdIdenticalCallEndsTheTurn() throws {
    var steps = Self.steps()
    for round in 0..<2 {
      _ = try steps.prepared(Self.setup(), conversation: Self.conversation)
      if round == 0 {
        _ = try steps.next(conversation: Self.conversation)
        _ = try steps.next(conversation: Self.conversation)
      }
      let calls = Self.call("Dune")
      _ = try steps.invoked([.toolCalls(calls)], usage: nil, conversation: Self.conversation)
      _ = try steps.toolsRan(calls, outputs: Self.output(for: calls), conversation: Self.conversation)
      _ = try steps.next(conversation: Self.conversation)
    }
    _ = try steps.prepared(Self.setup(), conversation: Self.conversation)
    #expect(throws: LanguageModelError.self) {
      try steps.invoked([.toolCalls(Self.call("Dune"))], usage: nil, conversation: Self.conversation)
    }
  }

  @Test func toolRoundsAreBounded() throws {
    var steps = Self.steps()
    var step = steps.start()
    var rounds = 0
    while true {
      switch step {
      case .prepare:
        step = try steps.prepared(Self.setup(), conversation: Self.conversation)
      case .invoke:
        let calls = Self.call("Book \(rounds)")
        rounds += 1
        step = try steps.invoked([.toolCalls(calls)], usage: nil, conversation: Self.conversation)
        if case .runTools = step {
          step = try steps.toolsRan(calls, outputs: Self.output(for: calls), conversation: Self.conversation)
        }
      case .checkInput:
        do {
          step = try steps.next(conversation: Self.conversation)
        } catch LanguageModelError.timeout {
          #expect(rounds == LanguageModelSession.maximumToolRounds)
          return
        }
      default:
        throw Failure("unexpected step \(step)")
      }
    }
  }

  @Test func aStructuredAnswerThatReadsAsARefusalIsRefused() throws {
    let schema = GenerationSchema(
      type: GeneratedContent.self, properties: [GenerationSchema.Property(name: "title", type: String.self)])
    var steps = Self.steps(schema: schema)
    _ = try steps.prepared(Self.setup(), conversation: Self.conversation)
    _ = try steps.next(conversation: Self.conversation)
    _ = try steps.next(conversation: Self.conversation)
    #expect(throws: ModelRefusal.self) {
      try steps.invoked(
        [Self.answer(#"{"title":"I'm sorry, but I can't help with that."}"#)], usage: nil,
        conversation: Self.conversation)
    }
  }

  struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }
}

extension Transcript.Entry {
  fileprivate var kindName: String {
    switch self {
    case .instructions: "instructions"
    case .prompt: "prompt"
    case .toolCalls: "toolCalls"
    case .toolOutput: "toolOutput"
    case .response: "response"
    case .reasoning: "reasoning"
    }
  }
}
