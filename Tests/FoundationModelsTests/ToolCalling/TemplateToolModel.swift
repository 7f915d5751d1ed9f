@_spi(Engine) import FoundationModels
import FMTestSupport

/// A scripted model that chats through one of the pinned llama.cpp's templates: it writes one
/// of `call` until a tool's output (`WeatherTool`'s "Sunny in Paris") is in its conversation,
/// then one of `answer`.
/// - Parameters:
///   - answerMarkers: where the template opens the model's answer (`ScriptedTokenModel.answering`).
///   - control: the vocabulary's control tokens besides the end of turn.
func templateToolModel(
  template: String, tokens: [String], control: [String] = [], answerMarkers: [String], calling call: [String],
  answer: [String]
) throws -> SystemLanguageModel {
  let scripted = ScriptedTokenModel.answering(tokens: tokens, control: control, answerMarkers: answerMarkers) {
    conversation in conversation.contains("Sunny in Paris") ? answer : call
  }
  return SystemLanguageModel(tokenModel: scripted, chatTemplate: try ChatTemplateFiles.source(template))
}

/// The tool calls `session`'s transcript holds, an entry each.
func toolCalls(in session: LanguageModelSession) -> [Transcript.ToolCalls] {
  session.transcript.compactMap { if case .toolCalls(let calls) = $0 { calls } else { nil } }
}
