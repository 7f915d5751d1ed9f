import FMTestSupport
import JSON
import Testing

@testable import InferenceEngine

/// Where llama.cpp's Jinja engine is more lenient than jinja2, templates render as jinja2 does
/// in transformers (`Sources/CChatTemplate/jinja2_semantics.cpp`); `TemplateParityTests` checks
/// the same against jinja2 itself on real templates.
@Suite struct Jinja2SemanticsTests {
  static func render(_ body: String, _ content: String = "Hi") throws -> RenderedPrompt {
    let template = try ChatTemplate(source: "{% for message in messages %}\(body){% endfor %}")
    return try template.render([ChatMessage(role: .user, content: content)], addGenerationPrompt: false)
  }

  static func failure(_ body: String) -> String? {
    do {
      _ = try render(body)
      return nil
    } catch {
      return "\(error)"
    }
  }

  @Test func addingAnUndefinedValueRaisesAndNamesIt() throws {
    let message = try #require(Self.failure("{{ 'says: ' + message.mood }}"))
    #expect(message.contains("'mood' is undefined"))
    #expect(message.contains("UndefinedError"))
    #expect(Self.failure("{{ undeclared + 'x' }}")?.contains("'undeclared' is undefined") == true)
    // Only `+` raises, as in jinja2: `~` and printing write undefined as nothing.
    #expect(try Self.render("{{ 'says: ' ~ message.mood }}[{{ message.mood }}]").text == "says: []")
  }

  @Test func addingNoneRaises() throws {
    #expect(Self.failure("{{ message.content + none }}")?.contains("TypeError") == true)
    #expect(Self.failure("{{ None + message.content }}")?.contains("is None") == true)
    #expect(try Self.render("{{ message.content + '!' }}{{ 1 + 2 }}").text == "Hi!3")
  }

  /// `'…'|safe` is Markup in jinja2: plain text added to it on either side is HTML-escaped,
  /// and so is what is added to the sum; Markup added to Markup is not.
  @Test func textAddedToSafeTextIsEscapedAsMarkupDoes() throws {
    let content = #"say "a" & 'b' <c>"#
    let escaped = "say &#34;a&#34; &amp; &#39;b&#39; &lt;c&gt;"
    #expect(try Self.render("{{ '<p>'|safe + message.content }}", content).text == "<p>" + escaped)
    #expect(try Self.render("{{ message.content + '<p>'|safe }}", content).text == escaped + "<p>")
    #expect(
      try Self.render("{{ '<p>'|safe + message.role + '</p>'|safe + message.content }}", content).text
        == "<p>user</p>" + escaped)
    #expect(try Self.render("{{ '<p>'|safe + '</p>'|safe }}").text == "<p></p>")
    // Without Markup, nothing is escaped.
    #expect(try Self.render("{{ '<p>' + message.content }}", content).text == "<p>" + content)
  }

  /// Escaped user text is still user text: no control token can come from it.
  @Test func escapedInputStaysInput() throws {
    let rendered = try Self.render("{{ '<|im_start|>'|safe + message.content }}", "<|im_end|>")
    #expect(rendered.text == "<|im_start|>&lt;|im_end|&gt;")
    #expect(rendered.pieces.filter { !$0.isControl }.map(\.text) == ["&lt;|im_end|&gt;"])
  }
}

/// Templates that add descriptions with `+` raise on a tool or parameter without one (as in
/// jinja2); a request is then rendered with empty ones, which OpenAI's API allows leaving out.
@Suite struct UndescribedToolTests {
  static let tool =
    #"{"type":"function","function":{"name":"getWeather","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}}"#
  static let described =
    #"{"type":"function","function":{"name":"getWeather","parameters":{"type":"object","properties":{"city":{"type":"string","description":""}},"required":["city"]},"description":""}}"#

  @Test(arguments: [
    "Apertus-8B-Instruct.jinja", "NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use.jinja",
    "meetkai-functionary-medium-v3.1.jinja", "openai-gpt-oss-120b.jinja",
  ])
  func rendersWithEmptyDescriptionsWhereTheTemplateNeedsThem(name: String) throws {
    let template = try ChatTemplate(source: ChatTemplateFiles.source(name), bosToken: "<s>", eosToken: "</s>")
    let messages = [ChatMessage(role: .user, content: "Weather in Paris?")]
    let rendered = try template.render(messages, tools: [Self.tool]).text
    #expect(rendered.contains("getWeather"))
    #expect(rendered == (try template.render(messages, tools: [Self.described]).text))
  }

  /// The call the template is probed with (`spacesCallArguments`) is of a described tool:
  /// these templates raise without one, which would read as calls written without spaces.
  @Test(arguments: [
    "Apertus-8B-Instruct.jinja", "NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use.jinja",
    "NousResearch-Hermes-3-Llama-3.1-8B-tool_use.jinja", "meetkai-functionary-medium-v3.1.jinja",
    "openai-gpt-oss-120b.jinja",
  ])
  func theCallSpacingProbeRendersWithADescribedTool(name: String) throws {
    let template = try ChatTemplate(source: ChatTemplateFiles.source(name), bosToken: "<s>", eosToken: "</s>")
    #expect(template.spacesCallArguments)
  }

  @Test func describingAddsOnlyWhatIsMissing() throws {
    let tool = try JSONValue(parsing: Self.tool)
    #expect(ChatTemplate.describing([tool]) == [try JSONValue(parsing: Self.described)])
    #expect(ChatTemplate.describing([try JSONValue(parsing: Self.described)]) == nil)
  }
}
