import CChatTemplate
import Foundation
import JSON

/// A Jinja template parsed by llama.cpp's engine (`common/jinja` in `libllama-common`, through
/// `CChatTemplate`), rendered into template text and input text kept apart.
///
/// The context's strings wrapped as `{"__input__": "…"}` are input: the engine keeps track of
/// them through the template's filters and concatenations (`jinja::string_part.is_input`), so
/// the rendering says which of its bytes came from input, and those are never read as control
/// tokens. Immutable and shareable: the engine's parsed program is only read when rendering.
final class JinjaTemplate: Sendable {
  private nonisolated(unsafe) let handle: OpaquePointer
  /// Whether the template renders tool calls but only with their arguments as a JSON string
  /// (adding them to text, say), as llama.cpp's capability probe finds when parsing it.
  let takesStringArguments: Bool

  /// Parses `source`.
  /// - Throws: `EngineError(.invalidChatTemplate)` with the engine's message on a syntax error.
  init(source: String) throws {
    var error: UnsafeMutablePointer<CChar>?
    let parsed = source.withCString { fm_chat_template_parse($0, strlen($0), &error) }
    guard let parsed else {
      throw EngineError(.invalidChatTemplate, "the chat template does not parse: \(Self.take(error))")
    }
    handle = parsed
    takesStringArguments = fm_chat_template_takes_string_arguments(parsed) != 0
  }

  deinit { fm_chat_template_free(handle) }

  /// Renders the template with `context` (a JSON object) as its variables.
  /// - Parameter now: the time `strftime_now` formats.
  /// - Throws: `EngineError(.invalidChatTemplate)` with the template's own message when it
  ///   raises (`raise_exception`) or fails.
  func render(_ context: JSONValue, now: Date = Date()) throws -> RenderedPrompt {
    let json = context.compactText
    var rendering = fm_rendering()
    var error: UnsafeMutablePointer<CChar>?
    let status = json.withCString {
      fm_chat_template_render(handle, $0, strlen($0), Int64(now.timeIntervalSince1970), &rendering, &error)
    }
    guard status == 0 else { throw EngineError(.invalidChatTemplate, "the chat template failed: \(Self.take(error))") }
    defer { fm_rendering_free(&rendering) }
    var prompt = RenderedPrompt()
    var offset = 0
    let bytes = UnsafeRawBufferPointer(start: rendering.text, count: rendering.text_length)
    for index in 0..<rendering.part_count {
      let length = rendering.part_lengths[index]
      let text = String(decoding: bytes[offset..<offset + length], as: UTF8.self)
      if rendering.part_is_input[index] != 0 { prompt.content(text) } else { prompt.control(text) }
      offset += length
    }
    return prompt
  }

  /// The message of an engine error, freed.
  private static func take(_ error: UnsafeMutablePointer<CChar>?) -> String {
    guard let error else { return "unknown error" }
    defer { fm_chat_template_free_string(error) }
    return String(cString: error)
  }
}
