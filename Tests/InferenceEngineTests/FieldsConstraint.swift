import FMTestSupport
import Foundation
import InferenceEngine

/// A constraint for a record of text fields: each `V` in `shape` is a value of lowercase
/// letters and spaces, at least one, each `N` a number (digits and points), and each `S` any
/// text without a quote, that the model ends by writing the character after it; every other
/// character is forced.
final class Fields: TokenConstraint, @unchecked Sendable {
  let model: ScriptedTokenModel
  let shape: [Character]
  /// Where the text so far stands in `shape`, and whether a value has begun there.
  private var state = (position: 0, inValue: false)

  init(model: ScriptedTokenModel, shape: String) {
    self.model = model
    self.shape = Array(shape)
  }

  /// The characters of `shape` that stand for values.
  private static let values: Set<Character> = ["V", "N", "S"]

  private func piece(_ token: Token) -> String { String(decoding: model.piece(of: token), as: UTF8.self) }

  /// Where `text` after the text so far leads, or nil where the shape refuses it.
  private func advance(over text: some StringProtocol) -> (position: Int, inValue: Bool)? {
    guard !text.isEmpty else { return nil }
    var (position, inValue) = state
    for character in text {
      if position < shape.count, Self.values.contains(shape[position]) {
        let inText = shape[position] == "V" && (character == " " || (character.isLetter && character.isLowercase))
        let inString = shape[position] == "S" && character != "\""
        if inText || inString || (shape[position] == "N" && (character.isNumber || character == ".")) {
          inValue = true
          continue
        }
        guard inValue else { return nil }
        position += 1
        inValue = false
      }
      guard position < shape.count, shape[position] == character else { return nil }
      position += 1
    }
    return (position, inValue)
  }

  func forcedTokens() -> [Token] {
    let forced = String(shape.dropFirst(state.position).prefix { !Self.values.contains($0) })
    return forced.isEmpty || state.inValue ? [] : model.tokenize(forced, parseSpecial: false)
  }

  func mask(_ logits: UnsafeMutableBufferPointer<Float>) {
    for index in logits.indices where advance(over: piece(Token(index))) == nil { logits[index] = -.infinity }
  }

  func accept(_ token: Token) throws {
    guard let next = advance(over: piece(token)) else { throw EngineError(.invalidRequest, "not allowed") }
    state = next
  }

  func extensions(of token: Token) -> [Token] {
    let prefix = piece(token)
    return (0..<model.vocabularySize).map { Token($0) }.filter { other in
      let full = piece(other)
      return full.count > prefix.count && full.hasPrefix(prefix) && advance(over: full.dropFirst(prefix.count)) != nil
    }
  }

  func acceptExtension(of token: Token, by longer: Token) throws {
    guard extensions(of: token).contains(longer), let next = advance(over: piece(longer).dropFirst(piece(token).count))
    else { throw EngineError(.invalidRequest, "not an extension") }
    state = next
  }

  func snapshot() -> (any Sendable)? { [state.position, state.inValue ? 1 : 0] }

  func restore(_ snapshot: any Sendable) {
    if let saved = snapshot as? [Int] { state = (saved[0], saved[1] == 1) }
  }

  var isComplete: Bool { state.position == shape.count }
  var mustEnd: Bool { isComplete }
  func tokensToClose() -> [Token] { [] }
}
