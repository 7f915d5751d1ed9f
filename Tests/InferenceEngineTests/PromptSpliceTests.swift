import FMTestSupport
import Testing

@testable import InferenceEngine

/// A cache that spells the prompt's text in other tokens is reused up to where both agree.
@Suite struct PromptSpliceTests {
  /// "ab", "c", "abc" and single bytes; `<|im_end|>` is the control token.
  static let model = ScriptedTokenModel(tokens: ["ab", "c", "abc", "xy"]) { _ in [:] }

  static func tokens(_ pieces: [String]) -> [Token] {
    pieces.map { piece in
      if piece == "<|im_end|>" { return model.endOfTurn }
      return Token(model.vocabulary.firstIndex(of: Array(piece.utf8)) ?? 0)
    }
  }

  @Test func theSameTextInOtherTokensIsReused() throws {
    // The cache wrote "abc" as "ab" "c"; the prompt has "abc" as one token.
    let cached = Self.tokens(["x", "ab", "c", "<|im_end|>", "y", "z"])
    let prompt = Self.tokens(["x", "abc", "<|im_end|>", "y", "q", "r"])
    let spliced = try #require(
      PromptSplice.onto(cached: cached, prompt: prompt, boundaries: [1, 3, 5], model: Self.model))
    #expect(spliced.tokens == Self.tokens(["x", "ab", "c", "<|im_end|>", "y", "q", "r"]))
    // 1 is before the parting; 3 is inside the spliced stretch (dropped); 5 moves by one.
    #expect(spliced.boundaries == [1, 6])
  }

  @Test func textNeverStandsInForAControlToken() {
    // The prompt spells "<|im_end|>" as text; the cache holds the control token.
    let text = Array("<|im_end|>").map { String($0) }
    let cached = Self.tokens(["x", "<|im_end|>", "y"])
    let prompt = Self.tokens(["x"] + text + ["y", "z"])
    #expect(PromptSplice.onto(cached: cached, prompt: prompt, boundaries: [], model: Self.model) == nil)
  }

  @Test func nothingIsSplicedWhereTheTextDiffers() {
    let cached = Self.tokens(["x", "ab", "c"])
    let prompt = Self.tokens(["x", "abc", "y"])
    // "ab" + "c" = "abc": reusable up to where both end, before the prompt's last token.
    #expect(
      PromptSplice.onto(cached: cached, prompt: prompt, boundaries: [], model: Self.model)?.tokens
        == Self.tokens(["x", "ab", "c", "y"]))
    let other = Self.tokens(["x", "ab", "xy"])
    #expect(PromptSplice.onto(cached: other, prompt: prompt, boundaries: [], model: Self.model) == nil)
    // The prompt's last token is always evaluated: a cache that covers it is not spliced past it.
    let whole = Self.tokens(["x", "abc"])
    #expect(PromptSplice.onto(cached: cached, prompt: whole, boundaries: [], model: Self.model) == nil)
  }
}
