import FMTestSupport
import Foundation
@_spi(Engine) import FoundationModels
import Testing

/// Mistral Nemo's template: the tools are given to the template, a call is written in its
/// `[TOOL_CALLS][{"name": …, "arguments": {…}, "id": "call00000"}]` form under the tool's schema,
/// and the call and its output go back through the template with the 9-character ids it requires.
@Suite struct MistralToolCallingTests {
  /// - Parameter controlMarker: whether `[TOOL_CALLS]` is a control token, as in Mistral's own
  ///   vocabulary (its text is then no piece of the output).
  static func model(
    calling call: [String], answer: [String] = ["It is sunny."], controlMarker: Bool = true
  ) throws -> SystemLanguageModel {
    try templateToolModel(
      template: "mistralai-Mistral-Nemo-Instruct-2407.jinja",
      tokens: (controlMarker ? [] : ["[TOOL_CALLS]"]) + ["[{\"", "name", "arguments", "\": ", "Paris", "Sunny"],
      control: controlMarker ? ["[TOOL_CALLS]"] : [], answerMarkers: ["[/INST]", "[/TOOL_RESULTS]"], calling: call,
      answer: answer)
  }

  @Test(arguments: [true, false])
  func aToolCallsArrayRunsTheToolAndGoesBackThroughTheTemplate(controlMarker: Bool) async throws {
    let weather = WeatherTool()
    // The model's own id is not written: the format writes the call's.
    let call = #"[TOOL_CALLS][{"name": "getWeather", "arguments": {"city":"Paris"}, "id": "call00000"}]"#
    let session = LanguageModelSession(
      model: try Self.model(
        calling: [#"[TOOL_CALLS][{"name": "getWeather", "arguments": {"city":"Paris"}, "id": "a"}]"#, call],
        controlMarker: controlMarker),
      tools: [weather])
    let response = try await session.respond(
      to: "Weather in Paris?", options: GenerationOptions(samplingMode: .greedy))
    #expect(weather.cities.withLock { $0 } == ["Paris"])
    #expect(response.content == "It is sunny.")
  }

  /// A `]` inside the arguments does not end the call.
  @Test func aBracketInsideTheArgumentsDoesNotEndTheCall() async throws {
    let weather = WeatherTool()
    let call = #"[TOOL_CALLS][{"name": "getWeather", "arguments": {"city":"Paris]"}, "id": "call00000"}]"#
    let session = LanguageModelSession(model: try Self.model(calling: [call]), tools: [weather])
    _ = try? await session.respond(to: "Weather in Paris?", options: GenerationOptions(samplingMode: .greedy))
    #expect(weather.cities.withLock { $0 } == ["Paris]"])
  }

  @Test func theTemplateDescribesTheTools() async throws {
    let tool = Transcript.ToolDefinition(tool: WeatherTool())
    let request = LanguageModelExecutorGenerationRequest(
      id: UUID(),
      transcript: Transcript(entries: [
        .instructions(.init(segments: [], toolDefinitions: [tool])),
        .prompt(.init(segments: [.text(.init(content: "Hi"))])),
      ]),
      enabledTools: [tool], generationOptions: GenerationOptions(), contextOptions: ContextOptions(), metadata: [:])
    let prompt = try await Self.model(calling: []).renderedPrompt(for: request).text
    #expect(prompt.contains("[AVAILABLE_TOOLS]"))
    #expect(prompt.contains("getWeather"))
  }
}

/// Mistral Small 3.2's template: a call is `[TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{…}`, the name bare,
/// the markers control tokens; it goes back through the template with its id.
@Suite struct MistralV7ToolCallingTests {
  static func model(calling call: [String], answer: [String] = ["It is sunny."]) throws -> SystemLanguageModel {
    try templateToolModel(
      template: "Mistral-Small-3.2-24B-Instruct-2506.jinja",
      tokens: ["get", "Weather", "Time", "{\"", "city", "\":\"", "Paris", "Sunny"],
      control: ["[TOOL_CALLS]", "[CALL_ID]", "[ARGS]"],
      answerMarkers: ["[/INST]", "[/TOOL_RESULTS]"], calling: call, answer: answer)
  }

  @Test func aBareNameCallRunsTheToolAndGoesBackThroughTheTemplate() async throws {
    let weather = WeatherTool()
    let session = LanguageModelSession(
      model: try Self.model(calling: [#"[TOOL_CALLS]getWeather[CALL_ID]call00000[ARGS]{"city":"Paris"}"#]),
      tools: [weather, ClockTool()])
    let response = try await session.respond(
      to: "Weather in Paris?", options: GenerationOptions(samplingMode: .greedy))
    #expect(weather.cities.withLock { $0 } == ["Paris"])
    #expect(response.content == "It is sunny.")
    let calls = toolCalls(in: session)
    #expect(calls.first?.first?.toolName == "getWeather")
  }

  /// A name that is no tool's cannot be written: the model's `getWeatherNow` stops at the name
  /// of the tool it begins, and the call is that tool's.
  @Test func onlyAToolsNameCanBeWritten() async throws {
    let weather = WeatherTool()
    let session = LanguageModelSession(
      model: try Self.model(calling: [
        #"[TOOL_CALLS]getWeatherNow[CALL_ID]call00000[ARGS]{"city":"Paris"}"#,
        #"[TOOL_CALLS]getWeather[CALL_ID]call00000[ARGS]{"city":"Paris"}"#,
      ]),
      tools: [weather])
    _ = try await session.respond(to: "Weather in Paris?", options: GenerationOptions(samplingMode: .greedy))
    #expect(weather.cities.withLock { $0 } == ["Paris"])
  }
}
