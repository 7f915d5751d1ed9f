import Foundation
import FoundationModels
import Synchronization
import Testing

/// What hooks saw, in order.
final class EventLog: Sendable {
  private let events = Mutex<[String]>([])
  var all: [String] { events.withLock { $0 } }
  func append(_ event: String) { events.withLock { $0.append(event) } }
}

extension SessionPropertyValues {
  @SessionPropertyEntry var escalated: Bool = false
}

/// A profile type that picks its branch from a session property, each branch with its model.
struct Support: LanguageModelSession.DynamicProfile {
  let small: ScriptedProvider
  let big: ScriptedProvider
  let log: EventLog
  @SessionProperty(\.escalated) var escalated

  var body: some DynamicProfile {
    if escalated {
      Profile {
        Instructions("Senior agent mode.")
        Lookup("refund")
      }
      .model(big)
      .reasoningLevel(.deep)
      .onActivate { log.append("senior on, escalated \(escalated)") }
      .onDeactivate { log.append("senior off") }
    } else {
      Profile {
        Instructions("Be brief.")
        Escalate()
      }
      .model(small)
      .temperature(0.3)
      .onActivate { log.append("brief on") }
      .onDeactivate { log.append("brief off") }
    }
  }
}

/// A window over what is sent, as a history transform: the last `count` entries of the
/// invocation's transcript — the instructions are among the entries it counts.
struct SentWindowModifier: LanguageModelSession.DynamicProfileModifier {
  let count: Int

  func body(content: Content) -> some DynamicProfile {
    content.historyTransform { transcript in Array(transcript.suffix(count)) }
  }
}

/// A window over the conversation itself, as an `onPrompt` hook: when a prompt arrives (the last
/// entry of `history`), it keeps the last `count` entries, and the transcript keeps the window.
struct ConversationWindowModifier: LanguageModelSession.DynamicProfileModifier {
  let count: Int
  @SessionProperty(\.history) var history

  func body(content: Content) -> some DynamicProfile {
    content.onPrompt { history = history.suffix(count) }
  }
}

extension LanguageModelSession.DynamicProfile {
  func sentWindow(_ count: Int) -> some DynamicProfile {
    modifier(SentWindowModifier(count: count))
  }

  func conversationWindow(_ count: Int) -> some DynamicProfile {
    modifier(ConversationWindowModifier(count: count))
  }
}

/// A modifier that, when a prompt arrives and the conversation is long, replaces what came
/// before the prompt with a summary entry.
struct SummarizeModifier: LanguageModelSession.DynamicProfileModifier {
  let limit: Int
  @SessionProperty(\.history) var history

  func body(content: Content) -> some DynamicProfile {
    content.onPrompt {
      guard history.count > limit, let prompt = history.last else { return }
      let summary = Transcript.Entry.response(
        Transcript.Response(
          assetIDs: [], segments: [.text(Transcript.TextSegment(content: "Summary of \(history.count - 1)"))]))
      history = [summary, prompt]
    }
  }
}

/// A modifier that, when a prompt arrives after a long conversation, replaces the whole
/// conversation with one prompt: a recap of it, then the new prompt's segments.
struct RecapModifier: LanguageModelSession.DynamicProfileModifier {
  let limit: Int
  @SessionProperty(\.history) var history

  func body(content: Content) -> some DynamicProfile {
    content.onPrompt {
      guard history.count > limit, case .prompt(let prompt) = history.last else { return }
      let recap = Transcript.Segment.text(Transcript.TextSegment(content: "Recap of \(history.count - 1)."))
      history = [
        .prompt(
          Transcript.Prompt(segments: [recap] + prompt.segments, options: prompt.options, responseFormat: nil))
      ]
    }
  }
}

/// A modifier that reads the session's history when a turn starts.
struct HistoryCounter: LanguageModelSession.DynamicProfileModifier {
  let log: EventLog
  @SessionProperty(\.history) var history

  func body(content: Content) -> some DynamicProfile {
    content.onPrompt { log.append("history \(history.count), last \(history.last?.kindName ?? "none")") }
  }
}

struct HookFailure: Error {}

/// Dynamic profiles: a declarative configuration evaluated before every invocation.
@Suite struct DynamicProfileTests {
  @Test func aProfileGivesTheInstructionsToolsAndModel() async throws {
    let model = ScriptedProvider([answer("Hi.")])
    let session = LanguageModelSession(
      profile: LanguageModelSession.Profile {
        Instructions("Be helpful.")
        Lookup("weather")
      }.model(model))
    let response = try await session.respond(to: "Hello")

    #expect(response.content == "Hi.")
    let request = try #require(model.script.requests.first)
    #expect(request.instructionsText == "Be helpful.")
    #expect(request.toolNames == ["weather"])
    #expect(session.transcript.map(\.kindName) == ["instructions", "prompt", "response"])
  }

  @Test func optionModifiersAreDefaultsThatTheRequestOverridesFieldByField() async throws {
    let model = ScriptedProvider([answer("A."), answer("B.")])
    let session = LanguageModelSession(
      profile: LanguageModelSession.Profile { Instructions("Options.") }
        .model(model)
        .temperature(0.3)
        .samplingMode(.greedy)
        .maximumResponseTokens(64)
        .toolCallingMode(.disallowed)
        .reasoningLevel(.light)
        .temperature(0.9))
    _ = try await session.respond(to: "One")
    _ = try await session.respond(
      to: "Two", options: GenerationOptions(temperature: 0.7, maximumResponseTokens: 8))

    let requests = model.script.requests
    try #require(requests.count == 2)
    #expect(requests[0].generationOptions.temperature == 0.3, "the modifier nearer the profile wins")
    #expect(requests[0].generationOptions.samplingMode == .greedy)
    #expect(requests[0].generationOptions.maximumResponseTokens == 64)
    #expect(requests[0].generationOptions.toolCallingMode == .disallowed)
    #expect(requests[0].contextOptions.reasoningLevel == .light)
    #expect(requests[1].generationOptions.temperature == 0.7)
    #expect(requests[1].generationOptions.maximumResponseTokens == 8)
    #expect(requests[1].generationOptions.samplingMode == .greedy, "what the request leaves unset")
  }

  @Test func aBranchOnASessionPropertySwitchesModelInstructionsAndLifecycle() async throws {
    let small = ScriptedProvider([answer("Brief."), answer("Brief again.")])
    let big = ScriptedProvider([answer("Senior.")])
    let log = EventLog()
    let session = LanguageModelSession(profile: Support(small: small, big: big, log: log))
    #expect(log.all.isEmpty, "lifecycle hooks run at invocations")

    _ = try await session.respond(to: "One")
    session.properties.escalated = true
    _ = try await session.respond(to: "Two")
    session.properties.escalated = false
    _ = try await session.respond(to: "Three")

    #expect(small.script.requests.map(\.instructionsText) == ["Be brief.", "Be brief."])
    #expect(small.script.requests.first?.generationOptions.temperature == 0.3)
    let senior = try #require(big.script.requests.first)
    #expect(senior.instructionsText == "Senior agent mode.")
    #expect(senior.toolNames == ["refund"])
    #expect(senior.contextOptions.reasoningLevel == .deep)
    #expect(senior.generationOptions.temperature == nil)
    #expect(senior.transcript.map(\.kindName) == ["instructions", "prompt", "response", "prompt"])
    #expect(log.all == ["brief on", "brief off", "senior on, escalated true", "senior off", "brief on"])
    #expect(small.script.executorCount == 1, "the branch that came back found its executor")
    #expect(big.script.executorCount == 1)
  }

  @Test func aHistoryTransformGetsTheWholeTranscriptAndWhatItReturnsIsSent() async throws {
    let model = ScriptedProvider([answer("A."), answer("B."), answer("C.")])
    let session = LanguageModelSession(
      profile: LanguageModelSession.Profile { Instructions("Window.") }.model(model).sentWindow(3))
    _ = try await session.respond(to: "One")
    _ = try await session.respond(to: "Two")
    _ = try await session.respond(to: "Three")

    let requests = model.script.requests
    #expect(requests[0].transcript.map(\.kindName) == ["instructions", "prompt"])
    #expect(requests[1].transcript.map(\.kindName) == ["prompt", "response", "prompt"], "the instructions count")
    #expect(requests[2].transcript.map(\.description) == ["(Prompt) Two", "(Response) B.", "(Prompt) Three"])
    #expect(
      session.transcript.map(\.kindName) == [
        "instructions", "prompt", "response", "prompt", "response", "prompt", "response",
      ], "the transcript keeps everything")
  }

  @Test func aHistoryTransformSeesTheTurnsToolRoundsAndMayKeepTheInstructions() async throws {
    let model = ScriptedProvider([answer("A."), call("weather"), answer("Sunny.")])
    let seen = EventLog()
    let session = LanguageModelSession(
      profile: LanguageModelSession.Profile {
        Instructions("Window.")
        Lookup("weather")
      }
      .model(model)
      .historyTransform { transcript in
        seen.append(transcript.map(\.kindName).joined(separator: " "))
        return Array(transcript.prefix(1) + transcript.dropFirst().suffix(3))
      })
    _ = try await session.respond(to: "One")
    _ = try await session.respond(to: "Weather?")

    #expect(
      seen.all == [
        "instructions prompt",
        "instructions prompt response prompt",
        "instructions prompt response prompt toolCalls toolOutput",
      ])
    let last = try #require(model.script.requests.last)
    #expect(last.transcript.map(\.kindName) == ["instructions", "prompt", "toolCalls", "toolOutput"])
    #expect(last.instructionsText == "Window.")
  }

  @Test func inAnOnPromptHookTheHistoryEndsWithTheNewPromptAndAWindowIsKept() async throws {
    let model = ScriptedProvider([answer("A."), answer("B."), answer("C.")])
    let session = LanguageModelSession(
      profile: LanguageModelSession.Profile { Instructions("Window.") }.model(model).conversationWindow(3))
    _ = try await session.respond(to: "One")
    _ = try await session.respond(to: "Two")
    let response = try await session.respond(to: "Three")

    let last = try #require(model.script.requests.last)
    #expect(
      last.transcript.map(\.description) == [
        "(Instructions) Window.", "(Prompt) Two", "(Response) B.", "(Prompt) Three",
      ])
    #expect(
      session.transcript.map(\.description) == [
        "(Instructions) Window.", "(Prompt) Two", "(Response) B.", "(Prompt) Three", "(Response) C.",
      ])
    #expect(response.transcriptEntries.map(\.description) == ["(Prompt) Three", "(Response) C."])
  }

  @Test func anEvenWindowMayCutBetweenAPromptAndItsResponse() async throws {
    let model = ScriptedProvider([answer("A."), answer("B."), answer("C."), answer("D.")])
    let session = LanguageModelSession(
      profile: LanguageModelSession.Profile { Instructions("Window.") }.model(model).conversationWindow(2))
    for prompt in ["One", "Two", "Three", "Four"] { _ = try await session.respond(to: prompt) }

    #expect(
      session.transcript.map(\.description) == [
        "(Instructions) Window.", "(Response) C.", "(Prompt) Four", "(Response) D.",
      ])
  }

  @Test func aHookMayReplaceTheHistoryBeforeTheFirstInvocation() async throws {
    let model = ScriptedProvider([answer("A."), answer("B."), answer("C.")])
    let session = LanguageModelSession(
      profile: LanguageModelSession.Profile { Instructions("Summarize.") }.model(model).modifier(
        SummarizeModifier(limit: 3)))
    _ = try await session.respond(to: "One")
    _ = try await session.respond(to: "Two")
    _ = try await session.respond(to: "Three")

    let last = try #require(model.script.requests.last)
    #expect(last.transcript.map(\.kindName) == ["instructions", "response", "prompt"])
    guard case .response(let summary)? = last.transcript.dropFirst().first else { return }
    #expect(summary.segments.map(\.description) == ["Summary of 4"])
    #expect(session.transcript.map(\.kindName) == ["instructions", "response", "prompt", "response"])
  }

  @Test func aHookMayReplaceThePromptItselfAndTheTranscriptKeepsTheReplacement() async throws {
    let model = ScriptedProvider([answer("A."), answer("B."), answer("C.")])
    let session = LanguageModelSession(
      profile: LanguageModelSession.Profile { Instructions("Recap.") }.model(model).modifier(RecapModifier(limit: 2)))
    _ = try await session.respond(to: "One")
    let second = try await session.respond(to: "Two")
    let third = try await session.respond(to: "Three")

    let requests = model.script.requests
    #expect(requests[1].transcript.map(\.description) == ["(Instructions) Recap.", "(Prompt) Recap of 2.\nTwo"])
    #expect(requests[2].transcript.map(\.description) == ["(Instructions) Recap.", "(Prompt) Recap of 2.\nThree"])
    #expect(
      session.transcript.map(\.description) == [
        "(Instructions) Recap.", "(Prompt) Recap of 2.\nThree", "(Response) C.",
      ])
    #expect(second.transcriptEntries.map(\.description) == ["(Prompt) Recap of 2.\nTwo", "(Response) B."])
    #expect(third.transcriptEntries.map(\.description) == ["(Prompt) Recap of 2.\nThree", "(Response) C."])
  }

  @Test func aFailedTurnLeavesTheHistoryAsItWasUnlessThePolicyPreservesIt() async throws {
    let failing = Round([.response(action: .appendText("Once", tokenCount: 1))], error: HookFailure())
    let model = ScriptedProvider([answer("A."), failing, failing])
    let session = LanguageModelSession(
      profile: LanguageModelSession.Profile { Instructions("Window.") }.model(model).conversationWindow(1))
    _ = try await session.respond(to: "One")
    let before = session.transcript.history

    await #expect(throws: HookFailure.self) { try await session.respond(to: "Two") }
    #expect(model.script.requests.last?.transcript.map(\.kindName) == ["instructions", "prompt"], "the hook trimmed")
    #expect(session.transcript.history == before, "a failed turn leaves the conversation as it was")

    session.transcriptErrorHandlingPolicy = .preserveTranscript
    await #expect(throws: HookFailure.self) { try await session.respond(to: "Three") }
    #expect(
      session.transcript.map(\.description) == ["(Instructions) Window.", "(Prompt) Three", "(Response) Once"],
      "the trimmed history, the prompt and the partial answer")
  }

  @Test func hooksRunAsTheTurnsEntriesAreProduced() async throws {
    let model = ScriptedProvider([call("weather"), answer("Sunny.")])
    let log = EventLog()
    let session = LanguageModelSession(
      profile: LanguageModelSession.Profile {
        Instructions("Hooks.")
        Lookup("weather") { log.append("tool runs") }
      }
      .model(model)
      .onPrompt { prompt in log.append("prompt \(prompt.segments.map(\.description).joined())") }
      .onPrompt { log.append("prompt") }
      .onToolCall { call in log.append("call \(call.toolName)") }
      .onToolCall { log.append("call") }
      .onToolOutput { call, output in log.append("output \(call.id) \(output.segments.map(\.description).joined())") }
      .onToolOutput { log.append("output") }
      .onResponse { response in log.append("response \(response.segments.map(\.description).joined())") }
      .onResponse { log.append("response") }
      .modifier(HistoryCounter(log: log)))
    _ = try await session.respond(to: "Weather?")

    // Outermost first, as history transforms (Apple's modifiers apply from the outside in).
    #expect(
      log.all == [
        "history 1, last prompt", "prompt", "prompt Weather?", "call", "call weather", "tool runs",
        "output", "output c1 weather k",
        "response", "response Sunny.",
      ])
  }

  /// `.window(3).droppingCalls()` drops the finished calls first and then takes the window, as
  /// Apple documents `.rollingWindow(entries:).droppingCompletedToolCalls()`: the window keeps
  /// the earlier prompt instead of an orphaned tool output.
  @Test func historyTransformsApplyFromTheOutsideIn() async throws {
    let model = ScriptedProvider([call("weather"), answer("Sunny."), answer("Cold.")])
    let session = LanguageModelSession(
      profile: LanguageModelSession.Profile {
        Instructions("Order.")
        Lookup("weather")
      }
      .model(model)
      .historyTransform { transcript in Array(transcript.prefix(1) + transcript.dropFirst().suffix(3)) }
      .historyTransform { transcript in
        transcript.filter { entry in
          switch entry {
          case .toolCalls, .toolOutput: false
          default: true
          }
        }
      })
    _ = try await session.respond(to: "Weather?")
    _ = try await session.respond(to: "And tomorrow?")
    let last = try #require(model.script.requests.last)
    #expect(last.transcript.map(\.kindName) == ["instructions", "prompt", "response", "prompt"])
  }

  @Test func aThrowingHookFailsTheTurnUnderTheProfilesErrorPolicy() async throws {
    let model = ScriptedProvider([answer("Sunny.")])
    let session = LanguageModelSession(
      profile: LanguageModelSession.Profile { Instructions("Hooks.") }
        .model(model)
        .onResponse { throw HookFailure() }
        .transcriptErrorHandlingPolicy(.preserveTranscript))
    await #expect(throws: HookFailure.self) { try await session.respond(to: "Weather?") }
    #expect(session.transcript.map(\.kindName) == ["instructions", "prompt", "response"], "preserved")

    session.transcriptErrorHandlingPolicy = .revertTranscript
    await #expect(throws: HookFailure.self) { try await session.respond(to: "Again?") }
    #expect(session.transcript.count == 3, "the session's own policy wins")
  }

  @Test func rootDynamicInstructionsReplaceTheProfilesInstructionsAndKeepItsSettings() async throws {
    let model = ScriptedProvider([answer("A."), answer("B.")])
    let session = LanguageModelSession(
      profile: LanguageModelSession.Profile {
        Instructions("From the profile.")
        Lookup("weather")
      }.model(model).temperature(0.2))
    _ = try await session.respond(to: "One")
    session.properties.rootDynamicInstructions = Instructions("Replaced.")
    _ = try await session.respond(to: "Two")

    let requests = model.script.requests
    #expect(requests.map(\.instructionsText) == ["From the profile.", "Replaced."])
    #expect(requests.map(\.toolNames) == [["weather"], []])
    #expect(requests.map(\.generationOptions.temperature) == [0.2, 0.2])
  }

  /// The deprecated names do what their replacements do.
  @available(*, deprecated)
  @Test func theDeprecatedNamesForwardToTheirReplacements() async throws {
    let model = ScriptedProvider([answer("A."), answer("B.")])
    let session = LanguageModelSession(
      profile: LanguageModelSession.Profile { Instructions("Old names.") }
        .model(model)
        .inputFilter { Array($0.suffix(2)) }
        .toolCalling(.disallowed))
    _ = try await session.respond(to: "One")
    _ = try await session.respond(to: "Two")

    let last = try #require(model.script.requests.last)
    #expect(last.transcript.map(\.kindName) == ["response", "prompt"])
    #expect(last.generationOptions.toolCallingMode == .disallowed)
  }

  @Test func aToolWriteSwitchesTheProfileInTheNextRound() async throws {
    let small = ScriptedProvider([call("escalate")])
    let big = ScriptedProvider([answer("Refunded.")])
    let log = EventLog()
    let session = LanguageModelSession(profile: Escalating(small: small, big: big, log: log))
    let response = try await session.respond(to: "Refund me")

    #expect(response.content == "Refunded.")
    #expect(small.script.requests.count == 1)
    #expect(big.script.requests.first?.instructionsText == "Senior agent mode.")
    #expect(log.all == ["brief on", "brief off", "senior on, escalated true"])
  }
}

/// A profile made of another.
struct Escalating: LanguageModelSession.DynamicProfile {
  let small: ScriptedProvider
  let big: ScriptedProvider
  let log: EventLog

  var body: some DynamicProfile {
    Support(small: small, big: big, log: log)
  }
}

/// A tool that escalates the conversation.
struct Escalate: Tool {
  @Generable
  struct Arguments {
    var key: String
  }

  let name = "escalate"
  let description = "Hands the conversation to a senior agent."
  @SessionProperty(\.escalated) var escalated

  func call(arguments: Arguments) async throws -> String {
    escalated = true
    return "escalated"
  }
}
