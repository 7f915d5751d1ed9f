import Foundation
import JSON

@testable import InferenceEngine

/// The conversations every template is rendered with in the parity tests: plain turns, a
/// system message, tool definitions, a call and its result, parallel calls, a reasoning turn,
/// and thinking switched off.
struct ParityConversation {
  var name: String
  var messages: [ChatMessage]
  var tools: [String] = []
  var addGenerationPrompt = true
  var variables: [JSONValue.Member] = []

  static let weather =
    #"{"type":"function","function":{"name":"get_weather","description":"The current weather in a city.","parameters":{"type":"object","properties":{"city":{"type":"string","description":"The city's name"},"unit":{"type":"string","enum":["celsius","fahrenheit"]}},"required":["city"]}}}"#
  static let time =
    #"{"type":"function","function":{"name":"get_time","description":"The time at an offset from UTC.","parameters":{"type":"object","properties":{"offset":{"type":"integer","description":"Hours from UTC","minimum":-12,"maximum":14}},"required":["offset"]}}}"#
  static let weatherCall = ChatMessage.ToolCall(name: "get_weather", argumentsJSON: #"{"city":"Paris"}"#, id: "call_1")
  static let timeCall = ChatMessage.ToolCall(name: "get_time", argumentsJSON: #"{"offset":1}"#, id: "call_2")

  static let all: [ParityConversation] = [
    ParityConversation(name: "user", messages: [.init(role: .user, content: "Hello, who are you?")]),
    ParityConversation(
      name: "user without generation prompt", messages: [.init(role: .user, content: "Hello, who are you?")],
      addGenerationPrompt: false),
    ParityConversation(
      name: "system and turns",
      messages: [
        .init(role: .system, content: "You are a terse assistant."), .init(role: .user, content: "Hi!"),
        .init(role: .assistant, content: "Hello. What do you need?"),
        .init(role: .user, content: "A haiku about rain, with \"quotes\" and a tab\there."),
      ]),
    ParityConversation(
      name: "tools",
      messages: [
        .init(role: .system, content: "Use the tools when they help."),
        .init(role: .user, content: "What is the weather in Paris?"),
      ], tools: [weather, time]),
    ParityConversation(
      name: "call and result",
      messages: [
        .init(role: .user, content: "What is the weather in Paris?"),
        .init(role: .assistant, content: "", toolCalls: [weatherCall]),
        .init(role: .tool, content: "18 degrees and sunny", toolName: "get_weather", toolCallID: "call_1"),
        .init(role: .assistant, content: "It is 18 degrees and sunny in Paris."),
      ], tools: [weather, time]),
    ParityConversation(
      name: "parallel calls",
      messages: [
        .init(role: .user, content: "Weather in Paris, and the time at UTC+1?"),
        .init(role: .assistant, content: "", toolCalls: [weatherCall, timeCall]),
        .init(role: .tool, content: "18 degrees and sunny", toolName: "get_weather", toolCallID: "call_1"),
        .init(role: .tool, content: "12:00", toolName: "get_time", toolCallID: "call_2"),
      ], tools: [weather, time]),
    ParityConversation(
      name: "reasoning",
      messages: [
        .init(role: .user, content: "What is 2+2?"),
        .init(role: .assistant, content: "4", reasoning: "Two and two make four."),
        .init(role: .user, content: "And 3+3?"),
      ]),
    ParityConversation(
      name: "thinking off", messages: [.init(role: .user, content: "What is 2+2?")],
      variables: [.init(key: "enable_thinking", value: .bool(false))]),
  ]

  /// The template's variables, as the library gives `template` them (input marked), or as it
  /// gives any template them where ours does not parse `template`.
  func context(for template: ChatTemplate?, now: Date) throws -> JSONValue {
    let toolValues = try tools.map { try JSONValue(parsing: $0) }
    guard let template else {
      return try TemplateVariables.context(
        messages: messages, tools: toolValues, addGenerationPrompt: addGenerationPrompt, bosToken: "<s>",
        eosToken: "</s>", extra: variables, now: now)
    }
    return try template.context(
      messages, tools: toolValues, addGenerationPrompt: addGenerationPrompt, variables: variables, now: now)
  }
}

extension JSONValue {
  /// The value with input marks (`{"__input__": s}`) replaced by their strings: what
  /// `transformers` is given.
  var unmarked: JSONValue {
    switch self {
    case .object(let members):
      if members.count == 1, members[0].key == "__input__", case .string = members[0].value { return members[0].value }
      return .object(members.map { .init(key: $0.key, value: $0.value.unmarked) })
    case .array(let elements): return .array(elements.map(\.unmarked))
    case .null, .bool, .number, .string: return self
    }
  }
}
