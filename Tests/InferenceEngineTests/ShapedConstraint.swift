import FMTestSupport
import Foundation
import InferenceEngine

/// A constraint for text of a fixed shape: `nil` in `shape` is a letter the model picks (x or
/// y), every other character is forced.
final class Shaped: TokenConstraint, @unchecked Sendable {
  let model: ScriptedTokenModel
  let shape: [Character?]
  private(set) var text = ""

  init(model: ScriptedTokenModel, shape: String) {
    self.model = model
    self.shape = shape.map { $0 == "L" ? nil : $0 }
  }

  private func piece(_ token: Token) -> String { String(decoding: model.piece(of: token), as: UTF8.self) }

  /// Whether `more` may follow the text so far.
  private func fits(_ more: Substring) -> Bool {
    guard text.count + more.count <= shape.count else { return false }
    return more.enumerated().allSatisfy { offset, character in
      shape[text.count + offset].map { $0 == character } ?? (character == "x" || character == "y")
    }
  }

  func forcedTokens() -> [Token] {
    let forced = String(shape.dropFirst(text.count).prefix { $0 != nil }.compactMap { $0 })
    return forced.isEmpty ? [] : model.tokenize(forced, parseSpecial: false)
  }

  func mask(_ logits: UnsafeMutableBufferPointer<Float>) {
    for index in logits.indices where !fits(Substring(piece(Token(index)))) || piece(Token(index)).isEmpty {
      logits[index] = -.infinity
    }
  }

  func accept(_ token: Token) throws {
    guard fits(Substring(piece(token))) else { throw EngineError(.invalidRequest, "not allowed") }
    text += piece(token)
  }

  func allowedTokens(limit: Int) -> [Token]? {
    let allowed = (0..<model.vocabularySize).map { Token($0) }.filter {
      !piece($0).isEmpty && fits(Substring(piece($0)))
    }
    return allowed.count <= limit ? allowed : nil
  }

  func extensions(of token: Token) -> [Token] {
    let prefix = piece(token)
    return (0..<model.vocabularySize).map { Token($0) }.filter { other in
      let full = piece(other)
      return full.count > prefix.count && full.hasPrefix(prefix) && fits(full.dropFirst(prefix.count))
    }
  }

  func acceptExtension(of token: Token, by longer: Token) throws {
    guard extensions(of: token).contains(longer) else { throw EngineError(.invalidRequest, "not an extension") }
    text += piece(longer).dropFirst(piece(token).count)
  }

  func snapshot() -> (any Sendable)? { text }

  func restore(_ snapshot: any Sendable) {
    if let text = snapshot as? String { self.text = text }
  }

  var isComplete: Bool { text.count == shape.count }
  var mustEnd: Bool { isComplete }
  func tokensToClose() -> [Token] { [] }
}
