import FMTestSupport
import Foundation
import FoundationModels
import Synchronization
import Testing

/// Arguments of ``WeatherTool``.
@Generable struct City {
  @Guide(description: "The city's name") var city: String
}

/// Looks up the weather; records the cities it was asked about.
final class WeatherTool: Tool, Sendable {
  let name = "getWeather"
  let description = "The weather in a city."
  let cities = Mutex<[String]>([])

  func call(arguments: City) async throws -> String {
    cities.withLock { $0.append(arguments.city) }
    return "Sunny in \(arguments.city)"
  }
}

/// Arguments of ``ClockTool``.
@Generable struct Zone {
  @Guide(description: "An hour offset from UTC", .range(-12...14)) var offset: Int
}

struct ClockTool: Tool {
  let name = "getTime"
  let description = "The time in a time zone."

  func call(arguments: Zone) async throws -> String {
    "12:00 at UTC\(arguments.offset >= 0 ? "+" : "")\(arguments.offset)"
  }
}

/// ``ClockTool`` that counts its calls.
final class CountingClock: Tool, Sendable {
  let name = "getTime"
  let description = "The time in a time zone."
  let calls = Mutex(0)

  func call(arguments: Zone) async throws -> String {
    calls.withLock { $0 += 1 }
    return "noon"
  }
}

/// A tool that always fails.
struct BrokenTool: Tool {
  struct Offline: Error {}
  let name = "getWeather"
  let description = "The weather in a city."
  func call(arguments: City) async throws -> String { throw Offline() }
}

/// A call as the local models write it (`<tool_call>` blocks).
func toolCall(_ name: String, _ arguments: String) -> String {
  "<tool_call>\n{\"name\": \"\(name)\", \"arguments\": \(arguments)}\n</tool_call>"
}

/// The local executor's tool calls on a scripted model: the real engine and constraint, no weights.
@Suite struct LocalToolCallingTests {
  /// Qwen's vocabulary has the markers as single tokens; without them (SmolLM2) they are spelled
  /// out in several.
  static let qwenLike = ["<tool_call>", "</tool_call>", "\n{\"", "name", "arguments", "\": ", "Paris", "Sunny"]

  /// A model that calls `call` first and, once it has a tool's output, answers `answer`.
  func model(calling call: [String], answer: [String] = ["It is sunny."], tokens: [String] = qwenLike)
    -> SystemLanguageModel
  {
    .scripted(.answering(tokens: tokens) { conversation in conversation.contains("<tool_response>") ? answer : call })
  }

  @Test(arguments: [qwenLike, []])
  func aCallRunsTheToolAndTheModelAnswersWithItsOutput(tokens: [String]) async throws {
    let weather = WeatherTool()
    let session = LanguageModelSession(
      model: model(calling: [toolCall("getWeather", #"{"city":"Paris"}"#)], tokens: tokens), tools: [weather])
    let response = try await session.respond(to: "Weather in Paris?")
    #expect(response.content == "It is sunny.")
    #expect(weather.cities.withLock { $0 } == ["Paris"])
    let kinds = session.transcript.map { entry -> String in
      switch entry {
      case .instructions: "instructions"
      case .prompt: "prompt"
      case .toolCalls(let calls): "calls:" + calls.map(\.toolName).joined(separator: ",")
      case .toolOutput(let output): "output:" + output.toolName
      case .response: "response"
      default: "other"
      }
    }
    #expect(kinds == ["instructions", "prompt", "calls:getWeather", "output:getWeather", "response"])
  }

  @Test func parallelCallsRunAndTheirOutputsFollowInCallOrder() async throws {
    let weather = WeatherTool()
    let calls = toolCall("getWeather", #"{"city":"Paris"}"#) + "\n" + toolCall("getTime", #"{"offset":1}"#)
    let session = LanguageModelSession(model: model(calling: [calls]), tools: [weather, ClockTool()])
    _ = try await session.respond(to: "Weather and time in Paris?")
    guard
      case .toolCalls(let made)? = session.transcript.first(where: { if case .toolCalls = $0 { true } else { false } })
    else {
      Issue.record("no tool calls")
      return
    }
    #expect(made.map(\.toolName) == ["getWeather", "getTime"])
    #expect(try made.map { $0.arguments.jsonString } == [#"{"city":"Paris"}"#, #"{"offset":1}"#])
    let outputs = session.transcript.compactMap { entry -> String? in
      if case .toolOutput(let output) = entry { output.toolName } else { nil }
    }
    #expect(outputs == ["getWeather", "getTime"])
  }

  /// A model that writes a line break after its call and then ends its turn makes one call: the
  /// line break does not commit it to another (it forced a second, unwanted call before).
  @Test(arguments: [qwenLike, []])
  func aLineBreakAfterACallStillLetsTheTurnEnd(tokens: [String]) async throws {
    let weather = WeatherTool()
    let clock = CountingClock()
    let session = LanguageModelSession(
      model: model(calling: [toolCall("getWeather", #"{"city":"Paris"}"#) + "\n"], tokens: tokens),
      tools: [weather, clock])
    let response = try await session.respond(to: "Weather in Paris?")
    #expect(response.content == "It is sunny.")
    #expect(weather.cities.withLock { $0 } == ["Paris"])
    #expect(clock.calls.withLock { $0 } == 0)
    let calls = toolCalls(in: session)
    #expect(calls.map { $0.map(\.toolName) } == [["getWeather"]])
  }

  /// A model that would call again and again: near the end of the budget no call is begun that
  /// could not be finished, so the turn ends with whole calls only (it ended inside one before).
  @Test(arguments: [qwenLike, []])
  func noCallIsBegunThatTheBudgetCannotFinish(tokens: [String]) async throws {
    let calls = (1...20).map { toolCall("getWeather", #"{"city":"Town \#($0)"}"#) }.joined(separator: "\n")
    // Spelled out, a call takes about 60 tokens; with Qwen's markers, about 12.
    for budget in [90, 110, 150] {
      let weather = WeatherTool()
      let session = LanguageModelSession(model: model(calling: [calls], tokens: tokens), tools: [weather])
      _ = try await session.respond(
        to: "Weather in Paris?", options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: budget))
      #expect(!weather.cities.withLock { $0 }.isEmpty, "budget \(budget): at least one whole call")
    }
  }

  /// A turn that must call a tool, with a budget smaller than the shortest call: a clear
  /// decoding failure before anything is generated, and the session goes on as it was.
  @Test(arguments: [qwenLike, []])
  func aRequiredCallTheBudgetCannotHoldFailsBeforeGenerating(tokens: [String]) async throws {
    let weather = WeatherTool()
    let session = LanguageModelSession(
      model: model(calling: [toolCall("getWeather", #"{"city":"Paris"}"#)], tokens: tokens), tools: [weather])
    let required = GenerationOptions(maximumResponseTokens: 2, toolCallingMode: .required)
    do {
      _ = try await session.respond(to: "Weather in Paris?", options: required)
      Issue.record("a call cannot fit 2 tokens")
    } catch LanguageModelSession.GenerationError.decodingFailure(let context) {
      #expect(context.debugDescription.contains("maximumResponseTokens (2)"))
    }
    #expect(weather.cities.withLock { $0 }.isEmpty)
    #expect(!session.transcript.contains { if case .response = $0 { true } else { false } })
    let response = try await session.respond(
      to: "Weather in Paris?", options: GenerationOptions(toolCallingMode: .required))
    #expect(weather.cities.withLock { $0 } == ["Paris"])
    #expect(response.content == "It is sunny.")
  }

  /// Qwen2.5-Coder opens its calls with `<tools>`: at the start of the turn that is a call,
  /// written and kept in the one format; elsewhere, or where calls are not allowed, it is text.
  @Test(arguments: [qwenLike, []])
  func aTurnOpenedWithTheToolsTagIsACall(tokens: [String]) async throws {
    let aliased = "<tools>\n{\"name\": \"getWeather\", \"arguments\": {\"city\":\"Paris\"}}\n</tools>"
    let weather = WeatherTool()
    let session = LanguageModelSession(model: model(calling: [aliased], tokens: tokens), tools: [weather])
    let response = try await session.respond(to: "Weather in Paris?")
    #expect(weather.cities.withLock { $0 } == ["Paris"])
    #expect(response.content == "It is sunny.")

    let disallowed = LanguageModelSession(model: model(calling: [aliased], tokens: tokens), tools: [WeatherTool()])
    let text = try await disallowed.respond(
      to: "Weather in Paris?", options: GenerationOptions(maximumResponseTokens: 12, toolCallingMode: .disallowed))
    #expect(text.content.hasPrefix("<tools>"))
    #expect(!disallowed.transcript.contains { if case .toolCalls = $0 { true } else { false } })
  }

  /// An empty `<tools></tools>` block is text, written as the model writes it: a token that
  /// goes on past the tag with anything but a call is not banned (banning it sent Qwen2.5-Coder
  /// into `<tools/>` repeated to the end of the budget).
  @Test func anEmptyToolsBlockIsTextAndEndsTheTurn() async throws {
    let weather = WeatherTool()
    let session = LanguageModelSession(
      model: model(calling: ["<tools></tools>"], tokens: Self.qwenLike + ["<tools", "></", "tools>"]), tools: [weather])
    let response = try await session.respond(to: "Weather in Paris?")
    #expect(response.content == "<tools></tools>")
    #expect(weather.cities.withLock { $0 }.isEmpty)
  }

  /// Qwen writes `<tools>` and the line break after it as one token (`>\n`): that opens a call,
  /// the rest of the call's fixed text forced from there (it was banned, and the model fell
  /// back to an empty block).
  @Test func theToolsTagAndItsLineBreakInOneTokenOpenACall() async throws {
    let aliased = "<tools>\n{\"name\": \"getWeather\", \"arguments\": {\"city\":\"Paris\"}}\n</tools>"
    let weather = WeatherTool()
    let session = LanguageModelSession(
      model: model(calling: [aliased, "<tools></tools>"], tokens: Self.qwenLike + ["<tools", ">\n", "></"]),
      tools: [weather])
    // Greedy: the script prefers the call (logit 10) to the empty block (9), which sampling
    // would pick about one time in four.
    let response = try await session.respond(
      to: "Weather in Paris?", options: GenerationOptions(samplingMode: .greedy))
    #expect(weather.cities.withLock { $0 } == ["Paris"])
    #expect(response.content == "It is sunny.")
  }

  /// Qwen2.5-Coder writes most of its calls as a JSON object in a fenced block: at the start of
  /// the turn, once the object names a tool, that is a call, the rest written in the one format
  /// (a token that would go on past the name in the model's own spacing, `",\n`, is banned).
  @Test(arguments: [qwenLike + ["```", "json", "\",\n"], []])
  func aFencedObjectThatNamesAToolIsACall(tokens: [String]) async throws {
    let fenced = "```json\n{\n  \"name\": \"getWeather\",\n  \"arguments\": {\"city\":\"Paris\"}}\n```"
    let compact = "```json\n{\n  \"name\": \"getWeather\", \"arguments\": {\"city\":\"Paris\"}}\n```"
    let weather = WeatherTool()
    let session = LanguageModelSession(
      model: model(calling: [fenced, compact], tokens: tokens), tools: [weather, ClockTool()])
    let response = try await session.respond(
      to: "Weather in Paris?", options: GenerationOptions(samplingMode: .greedy))
    #expect(weather.cities.withLock { $0 } == ["Paris"])
    #expect(response.content == "It is sunny.")
    let calls = toolCalls(in: session)
    #expect(calls.count == 1)
    #expect(calls.first?.first?.arguments.jsonString == #"{"city":"Paris"}"#)
  }

  /// Told its tools by Qwen2.5's template, whose example call has doubled braces, the model
  /// writes `{{"name": …}}}` (as pydantic-ai's agent loop met it against fm serve): still a
  /// call, constrained and run. The call ends at its object's closing brace; the extra one is
  /// banned like any text after a call, and the model (second choice) ends its turn there.
  @Test func aCallWithTheTemplatesDoubledBracesIsACall() async throws {
    let call = "{{\"name\": \"getWeather\", \"arguments\": {\"city\":\"Paris\"}}"
    let weather = WeatherTool()
    let session = LanguageModelSession(model: model(calling: [call + "}", call]), tools: [weather])
    let response = try await session.respond(
      to: "Weather in Paris?", options: GenerationOptions(samplingMode: .greedy))
    #expect(weather.cities.withLock { $0 } == ["Paris"])
    #expect(response.content == "It is sunny.")
  }

  /// Calls in the model's own form follow one another in that form (after `<tools>` one per
  /// line, in fences), and every one runs; text after them cannot be written (the model's
  /// "Done." is banned and the turn ends there).
  @Test(arguments: [
    "<tools>\n{\"name\": \"getWeather\", \"arguments\": {\"city\":\"Paris\"}}\n{\"name\": \"getTime\", \"arguments\": {\"offset\":1}}\n</tools>\nDone.",
    "```json\n{\"name\": \"getWeather\", \"arguments\": {\"city\":\"Paris\"}}\n```\n```json\n{\"name\": \"getTime\", \"arguments\": {\"offset\":1}}\n```\nDone.",
  ])
  func callsInTheModelsOwnFormAllRun(calls: String) async throws {
    let weather = WeatherTool()
    let clock = CountingClock()
    let session = LanguageModelSession(model: model(calling: [calls]), tools: [weather, clock])
    let response = try await session.respond(
      to: "Weather and time in Paris?", options: GenerationOptions(samplingMode: .greedy))
    #expect(response.content == "It is sunny.")
    #expect(weather.cities.withLock { $0 } == ["Paris"])
    #expect(clock.calls.withLock { $0 } == 1)
    let made = toolCalls(in: session)
    #expect(made.map { $0.map(\.toolName) } == [["getWeather", "getTime"]])
  }

  /// In the first round a sentence may come before a call in the model's own form: the
  /// sentence is text, the fenced object a call.
  @Test func aCallInTheModelsOwnFormMayFollowASentence() async throws {
    let call = "To find out, I call it:\n```json\n{\"name\": \"getWeather\", \"arguments\": {\"city\":\"Paris\"}}\n```"
    let weather = WeatherTool()
    let session = LanguageModelSession(model: model(calling: [call]), tools: [weather])
    let response = try await session.respond(
      to: "Weather in Paris?", options: GenerationOptions(samplingMode: .greedy))
    #expect(weather.cities.withLock { $0 } == ["Paris"])
    #expect(response.content == "It is sunny.")
  }

  /// After the tools' outputs a call in the model's own form is text: shown the output, Qwen
  /// wrote its fenced call again, round after round, until the loop guard ended the turn.
  @Test func theModelsOwnFormOpensCallsInTheFirstRoundOnly() async throws {
    let fenced = "```json\n{\"name\": \"getWeather\", \"arguments\": {\"city\":\"Paris\"}}\n```"
    let weather = WeatherTool()
    let session = LanguageModelSession(model: model(calling: [fenced], answer: [fenced]), tools: [weather])
    let response = try await session.respond(
      to: "Weather in Paris?", options: GenerationOptions(samplingMode: .greedy))
    #expect(weather.cities.withLock { $0 } == ["Paris"])
    #expect(response.content == fenced)
  }

  /// An answer that starts like a call but names no tool stays the answer, as written.
  @Test func aFencedObjectThatNamesNoToolIsTheAnswer() async throws {
    let example = "```json\n{\"name\": \"getter\", \"age\": 3}\n```"
    let weather = WeatherTool()
    let session = LanguageModelSession(model: model(calling: [example]), tools: [weather])
    let response = try await session.respond(to: "A JSON example, please.")
    #expect(response.content == example)
    #expect(weather.cities.withLock { $0 }.isEmpty)
  }

  @Test func aCallThatWouldBreakTheSchemaCannotBeProduced() async throws {
    // The model's first choice names a tool that does not exist, its second passes a number
    // out of the guide's range, its third a string where an integer belongs: the constraint
    // keeps each from being written, and the call that comes out decodes.
    let preferences = [
      toolCall("getTimes", #"{"offset":1}"#), toolCall("getTime", #"{"offset":99}"#),
      toolCall("getTime", #"{"offset":"one"}"#), toolCall("getTime", #"{"offset":3}"#),
    ]
    let session = LanguageModelSession(model: model(calling: preferences), tools: [WeatherTool(), ClockTool()])
    _ = try await session.respond(to: "Time?")
    let calls = toolCalls(in: session)
    let call = try #require(calls.first?.first)
    #expect(call.toolName == "getTime")
    let zone = try Zone(call.arguments)
    #expect((-12...14).contains(zone.offset))
  }

  @Test func disallowedMasksTheMarkerAndTheModelAnswers() async throws {
    let weather = WeatherTool()
    let session = LanguageModelSession(
      model: model(calling: [toolCall("getWeather", #"{"city":"Paris"}"#), "No tools today."]), tools: [weather])
    let response = try await session.respond(
      to: "Weather?", options: GenerationOptions(toolCallingMode: .disallowed))
    #expect(response.content == "No tools today.")
    #expect(weather.cities.withLock { $0 }.isEmpty)
  }

  @Test func requiredStartsTheTurnWithACallAndThenLetsTheModelAnswer() async throws {
    let weather = WeatherTool()
    let session = LanguageModelSession(
      model: model(calling: ["I know it.", toolCall("getWeather", #"{"city":"Paris"}"#)]), tools: [weather])
    let response = try await session.respond(to: "Weather?", options: GenerationOptions(toolCallingMode: .required))
    #expect(weather.cities.withLock { $0 } == ["Paris"])
    #expect(response.content == "It is sunny.")
  }

  @Test func aStructuredAnswerFollowsTheToolRound() async throws {
    let weather = WeatherTool()
    let session = LanguageModelSession(
      model: model(calling: [toolCall("getWeather", #"{"city":"Paris"}"#)], answer: [#"{"city":"Paris"}"#]),
      tools: [weather])
    let answer = try await session.respond(to: "Which city?", generating: City.self).content
    #expect(answer.city == "Paris")
    #expect(weather.cities.withLock { $0 } == ["Paris"])
  }

  @Test func aToolThatThrowsLeavesTheTranscriptAsBeforeTheTurn() async throws {
    let session = LanguageModelSession(
      model: model(calling: [toolCall("getWeather", #"{"city":"Paris"}"#)]), tools: [BrokenTool()])
    let before = session.transcript
    await #expect(throws: LanguageModelSession.ToolCallError.self) {
      try await session.respond(to: "Weather?")
    }
    #expect(session.transcript == before)
  }

  @Test func theNextRoundReusesTheCacheOfTheFirst() async throws {
    let session = LanguageModelSession(
      model: model(calling: [toolCall("getWeather", #"{"city":"Paris"}"#)]), tools: [WeatherTool()])
    let response = try await session.respond(to: "Weather in Paris?")
    // Two invocations: the second finds the first's prompt (at least) in the cache.
    let firstPrompt = try #require(session.transcript.firstIndex { if case .toolCalls = $0 { true } else { false } })
    #expect(firstPrompt > 0)
    #expect(response.usage.input.cachedTokenCount * 2 > response.usage.input.totalTokenCount / 2)
  }

  /// A call written in the model's own form is rendered as a `<tool_call>` block in the next
  /// round, which parts from the cache at the reply's first token: the turn's prompt, every
  /// token of it, is still reused there.
  @Test func theRoundAfterAnOwnFormCallReusesTheWholePrompt() async throws {
    let aliased = "<tools>\n{\"name\": \"getWeather\", \"arguments\": {\"city\":\"Paris\"}}\n</tools>"
    let prompt = "Weather in Paris? " + String(repeating: "Answer in one short sentence. ", count: 10)
    let alone = LanguageModelSession(model: model(calling: ["It is sunny."]), tools: [WeatherTool()])
    let promptTokens = try await alone.respond(to: prompt).usage.input.totalTokenCount
    let session = LanguageModelSession(model: model(calling: [aliased]), tools: [WeatherTool()])
    let response = try await session.respond(to: prompt)
    #expect(session.transcript.contains { if case .toolCalls = $0 { true } else { false } })
    #expect(response.usage.input.cachedTokenCount >= promptTokens)
  }

  @Test func theSameCallAThirdTimeEndsTheTurnWithAClearError() async throws {
    let call = toolCall("getWeather", #"{"city":"Paris"}"#)
    let weather = WeatherTool()
    let session = LanguageModelSession(model: model(calling: [call], answer: [call]), tools: [weather])
    await #expect(throws: LanguageModelError.self) { try await session.respond(to: "Weather?") }
    #expect(weather.cities.withLock { $0 } == ["Paris", "Paris"])
    #expect(session.transcript.count == 1)
  }

  @Test func aModelThatNeverStopsCallingEndsAfterTheRoundLimit() async throws {
    let weather = WeatherTool()
    let model = SystemLanguageModel.scripted(
      .answering(tokens: Self.qwenLike) { conversation in
        let round = conversation.components(separatedBy: "<tool_response>").count
        return [toolCall("getWeather", #"{"city":"C\#(round)"}"#)]
      })
    let session = LanguageModelSession(model: model, tools: [weather])
    await #expect(throws: LanguageModelError.self) { try await session.respond(to: "Weather?") }
    #expect(weather.cities.withLock { $0.count } == 16)
  }

  @Test func cancellingDuringAToolStopsTheLoop() async throws {
    /// Waits until cancelled; says when it started and whether it saw the cancellation.
    final class SlowTool: Tool, Sendable {
      let name = "getWeather"
      let description = "Slow."
      let started: AsyncStream<Void>.Continuation
      let cancelled = Mutex(false)
      init(started: AsyncStream<Void>.Continuation) { self.started = started }
      func call(arguments: City) async throws -> String {
        started.yield()
        do {
          try await Task.sleep(for: .seconds(600))
        } catch {
          cancelled.withLock { $0 = true }
          throw error
        }
        return "late"
      }
    }
    let (starts, started) = AsyncStream.makeStream(of: Void.self)
    let tool = SlowTool(started: started)
    let session = LanguageModelSession(
      model: model(calling: [toolCall("getWeather", #"{"city":"Paris"}"#)]), tools: [tool])
    let task = Task { try await session.respond(to: "Weather?") }
    for await _ in starts { break }
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(tool.cancelled.withLock { $0 })
    #expect(session.transcript.count == 1)
  }

  @Test func aModelWithoutToolsWritesTheMarkerAsText() async throws {
    let session = LanguageModelSession(model: model(calling: ["<tool_call> is a tag."]))
    #expect(try await session.respond(to: "Tag?").content == "<tool_call> is a tag.")
  }
}
