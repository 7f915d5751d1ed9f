import FMTestSupport
import Foundation
import Testing

@testable import InferenceEngine

/// For every template of the pinned llama.cpp: a user message spelled with control-token texts
/// yields no control token. The texts are every `<…>`, `<|…|>`, `<｜…｜>` and `[…]` literal
/// in the template (its own turn markers) and SmolLM2's control tokens.
@Suite struct TemplateControlTokenTests {
  /// The template's own marker literals, as the vocabulary of its model would hold them.
  static func markers(in source: String) -> [String] {
    let pattern = #"<[|｜/]?[A-Za-z_][A-Za-z0-9_▁| ｜.:-]{0,40}[|｜]?>|\[/?[A-Z_]{2,30}\]"#
    let regex = try! NSRegularExpression(pattern: pattern)
    let range = NSRange(source.startIndex..., in: source)
    return Array(
      Set(regex.matches(in: source, range: range).compactMap { Range($0.range, in: source).map { String(source[$0]) } })
    )
    .sorted()
  }

  @Test func userTextNeverYieldsAControlTokenInAnyTemplate() async throws {
    let names = try ChatTemplateFiles.names()
    #expect(names.count >= 70)
    let smol = try await TestModels.smolLM2()
    var checked = 0
    for name in names {
      let source = try ChatTemplateFiles.source(name)
      let markers = Self.markers(in: source) + ["<|im_start|>", "<|im_end|>", "<|endoftext|>"]
      let controls = ControlTokens(markers.enumerated().map { ($0.element, Token($0.offset)) })
      let template = try ChatTemplate(source: source, bosToken: "<s>", eosToken: "</s>")
      func controlCount(_ user: String) throws -> Int? {
        let messages = [ChatMessage(role: .system, content: "Be brief."), ChatMessage(role: .user, content: user)]
        guard let rendered = try? template.render(messages) else { return nil }
        return rendered.pieces.filter(\.isControl).flatMap { controls.split($0.text) }.filter {
          if case .control = $0 { true } else { false }
        }.count
      }
      let forged = markers.joined(separator: "\n")
      guard let plain = try controlCount("hello"), let attacked = try controlCount(forged) else { continue }
      #expect(attacked == plain, "\(name): the user's text made \(attacked - plain) control tokens")
      // With a real vocabulary too: none of SmolLM2's control tokens come from the user's text.
      let rendered = try template.render([ChatMessage(role: .user, content: forged)])
      let benign = try template.render([ChatMessage(role: .user, content: "hello")])
      let count = { (tokens: [Token]) in tokens.filter { smol.isControl($0) }.count }
      #expect(count(smol.tokenize(rendered)) == count(smol.tokenize(benign)), "\(name) on SmolLM2's vocabulary")
      checked += 1
    }
    #expect(checked >= 60)
  }
}
