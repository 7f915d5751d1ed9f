import FMTestSupport
import Foundation
@_spi(Engine) import FoundationModels
import Testing

/// Llama 3's templates: the tools are given to the template, a call is a bare JSON object with
/// `parameters`, one per turn, in any round, and it goes back through the template (its
/// `ipython` turn for the output). Its `tojson` spaces the arguments, so calls are written spaced.
@Suite struct Llama3ToolCallingTests {
  static func model(calling call: [String], answer: [String] = ["It is sunny."]) throws -> SystemLanguageModel {
    try templateToolModel(
      template: "meta-llama-Llama-3.1-8B-Instruct.jinja",
      tokens: ["{\"", "name", "parameters", "\": ", "Paris", "Sunny"],
      answerMarkers: ["<|start_header_id|>assistant<|end_header_id|>\n\n"], calling: call, answer: answer)
  }

  @Test func aBareJSONCallWithParametersRunsTheTool() async throws {
    let weather = WeatherTool()
    let session = LanguageModelSession(
      model: try Self.model(calling: [#"{"name": "getWeather", "parameters": {"city": "Paris"}}"#]), tools: [weather])
    let response = try await session.respond(
      to: "Weather in Paris?", options: GenerationOptions(samplingMode: .greedy))
    #expect(weather.cities.withLock { $0 } == ["Paris"])
    #expect(response.content == "It is sunny.")
    let calls = toolCalls(in: session)
    #expect(calls.first?.first?.arguments.jsonString == #"{"city":"Paris"}"#)
  }

  /// The template renders one call per turn (it raises for more): a second call cannot be
  /// written, and the turn ends after the first.
  @Test func aTurnHasOneCall() async throws {
    let weather = WeatherTool()
    let two =
      #"{"name": "getWeather", "parameters": {"city": "Paris"}}"# + "\n"
      + #"{"name": "getWeather", "parameters": {"city": "Rome"}}"#
    let session = LanguageModelSession(model: try Self.model(calling: [two]), tools: [weather])
    let response = try await session.respond(
      to: "Weather in Paris and Rome?", options: GenerationOptions(samplingMode: .greedy))
    #expect(weather.cities.withLock { $0 } == ["Paris"])
    #expect(response.content == "It is sunny.")
  }

  /// The tools reach the template, which describes them its own way.
  @Test func theTemplateDescribesTheTools() async throws {
    let model = try Self.model(calling: [])
    let request = LanguageModelExecutorGenerationRequest(
      id: UUID(),
      transcript: Transcript(entries: [
        .instructions(.init(segments: [], toolDefinitions: [Transcript.ToolDefinition(tool: WeatherTool())])),
        .prompt(.init(segments: [.text(.init(content: "Hi"))])),
      ]),
      enabledTools: [Transcript.ToolDefinition(tool: WeatherTool())], generationOptions: GenerationOptions(),
      contextOptions: ContextOptions(), metadata: [:])
    let prompt = try await model.renderedPrompt(for: request).text
    #expect(prompt.contains(#"Respond in the format {"name": function name, "parameters""#))
    #expect(prompt.contains("\"getWeather\""))
    #expect(!prompt.contains("<tool_call>"))
  }
}
