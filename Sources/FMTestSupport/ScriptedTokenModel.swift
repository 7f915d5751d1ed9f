import Foundation
import InferenceEngine
import Synchronization

/// A model without weights, for testing everything above the forward pass: a fixed vocabulary
/// of byte strings and a script that decides which token the "model" prefers next.
///
/// The script sees every token in the context and returns logits preferences; the engine's real
/// generator, prefix cache, samplers and constraints run on top of it unchanged.
public final class ScriptedTokenModel: TokenModel, @unchecked Sendable {
  /// Decides the next-token preferences from the context so far: token → logit.
  ///
  /// Tokens not named get `baseLogit`.
  public typealias Script = @Sendable (_ context: [Token]) -> [Token: Float]

  public let vocabulary: [[UInt8]]
  public let endOfTurn: Token
  public let trainedContextLength: Int
  public let chatTemplate: ChatTemplate?
  public let controlTokens: ControlTokens
  /// The control tokens, end of turn included.
  private let controlSet: Set<Token>
  public let baseLogit: Float = 0
  /// What its backends' decodes cost by their rows (`TokenBackend.decodeCosts`); nil, the
  /// default, drafts as the policy proposes.
  public var decodeCosts: DecodeCosts?
  private let script: Script
  /// Evaluations (forward passes) so far, and those that asked for given candidates' logits only.
  public var evaluations: Int { evaluationCount.withLock { $0 } }
  public var candidateEvaluations: Int { candidateCount.withLock { $0 } }
  fileprivate let evaluationCount = Mutex(0)
  fileprivate let candidateCount = Mutex(0)

  /// - Parameters:
  ///   - tokens: the vocabulary; token ids are indices. Single bytes are added for any byte not
  ///     covered, so every text can be tokenized. The end-of-turn token is appended last.
  ///   - chatTemplate: the template in the "model's file"; nil for a base model without one.
  ///   - control: further control tokens (Mistral's `[TOOL_CALLS]`): their text becomes them only
  ///     where special tokens are parsed, and they show no text in the output.
  public init(
    tokens: [String], contextLength: Int = 4096, chatTemplate: ChatTemplate? = ScriptedTokenModel.chatML,
    control: [String] = [], script: @escaping Script
  ) {
    self.chatTemplate = chatTemplate
    var vocabulary = tokens.map { Array($0.utf8) }
    let known = Set(vocabulary)
    for byte in 0...255 where !known.contains([UInt8(byte)]) { vocabulary.append([UInt8(byte)]) }
    endOfTurn = Token(vocabulary.count)
    vocabulary.append(Array("<|im_end|>".utf8))
    let controlIDs = control.map { text in
      vocabulary.append(Array(text.utf8))
      return (text: text, token: Token(vocabulary.count - 1))
    }
    controlTokens = ControlTokens([("<|im_end|>", endOfTurn)] + controlIDs)
    controlSet = Set([endOfTurn] + controlIDs.map(\.token))
    self.vocabulary = vocabulary
    trainedContextLength = contextLength
    self.script = script
  }

  /// A model that answers every prompt with `reply` and then ends its turn, greedily.
  ///
  /// It finds where the current answer began (after the last `<|im_start|>assistant\n`) and
  /// prefers the next token of `reply`, so it behaves like a deterministic chat model.
  /// - Parameter delay: seconds each forward pass takes, to keep a turn running while a test
  ///   acts on it.
  public static func replying(
    _ reply: String, tokens: [String] = [], contextLength: Int = 4096, delay: Double = 0
  ) -> ScriptedTokenModel {
    answering(tokens: tokens, contextLength: contextLength, delay: delay) { _ in [reply] }
  }

  /// A model that answers each prompt with one of the answers `answers` gives for the text
  /// before its answer (the rendered conversation), in order of preference: at each step it
  /// prefers the next token of every answer its output is still a prefix of, the first answer
  /// most, and ends its turn when no answer goes on.
  ///
  /// An answer that a constraint rules out is abandoned as soon as it departs from it, and the next
  /// one takes over.
  /// - Parameter answerMarkers: what opens the model's answer in the rendered conversation (its
  ///   template's generation prompt, and what ends a tool output where the template writes no
  ///   prompt after it): the answer starts after the last of them.
  public static func answering(
    tokens: [String] = [], control: [String] = [], contextLength: Int = 4096, delay: Double = 0,
    answerMarkers: [String] = ["<|im_start|>assistant\n"],
    _ answers: @escaping @Sendable (_ conversation: String) -> [String]
  ) -> ScriptedTokenModel {
    let holder = ModelHolder()
    let model = ScriptedTokenModel(tokens: tokens, contextLength: contextLength, control: control) { context in
      if delay > 0 { Thread.sleep(forTimeInterval: delay) }
      guard let model = holder.model else { return [:] }
      let text = Array(context.flatMap { model.vocabulary[Int($0)] })
      var answerStart = 0
      for marker in answerMarkers.map({ Array($0.utf8) }) where text.count >= marker.count {
        for start in stride(from: text.count - marker.count, through: 0, by: -1)
        where text[start..<start + marker.count].elementsEqual(marker) {
          answerStart = max(answerStart, start + marker.count)
          break
        }
      }
      let written = text[answerStart...]
      var preferences: [Token: Float] = [:]
      for (rank, answer) in answers(String(decoding: text[..<answerStart], as: UTF8.self)).enumerated() {
        let bytes = Array(answer.utf8)
        guard bytes.starts(with: written) else { continue }
        let logit = Float(10 - rank)
        let next =
          written.count < bytes.count
          ? model.tokenize(String(decoding: bytes[written.count...], as: UTF8.self), parseSpecial: true).first
          : model.endOfTurn
        if let next, preferences[next] == nil { preferences[next] = logit }
      }
      return preferences.isEmpty ? [model.endOfTurn: 10] : preferences
    }
    holder.model = model
    return model
  }

  public var vocabularySize: Int { vocabulary.count }

  public func makeChatTemplate(source: String) throws -> ChatTemplate { try ChatTemplate(source: source) }

  /// ChatML, the scripted models' template: each message in `<|im_start|>ROLE` … `<|im_end|>`
  /// (only `<|im_end|>` is a control token of theirs).
  public static let chatML = try! ChatTemplate(
    source: """
      {%- for message in messages -%}
      {{- '<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>\n' -}}
      {%- endfor -%}
      {%- if add_generation_prompt -%}{{- '<|im_start|>assistant\n' -}}{%- endif -%}
      """)

  public func tokenize(_ text: String, parseSpecial: Bool) -> [Token] {
    // Longest match first, like a BPE merge table would mostly produce.
    let bytes = Array(text.utf8)
    var tokens: [Token] = []
    var index = 0
    while index < bytes.count {
      var best = -1
      var bestLength = 0
      for (id, piece) in vocabulary.enumerated() where piece.count > bestLength && piece.count <= bytes.count - index {
        if !parseSpecial && controlSet.contains(Token(id)) { continue }
        if bytes[index..<index + piece.count].elementsEqual(piece) {
          best = id
          bestLength = piece.count
        }
      }
      tokens.append(Token(best))
      index += bestLength
    }
    return tokens
  }

  public func piece(of token: Token) -> [UInt8] {
    controlSet.contains(token) ? [] : vocabulary[Int(token)]
  }

  public func isEndOfGeneration(_ token: Token) -> Bool { token == endOfTurn }

  public func makeBackend(_ configuration: ContextConfiguration) throws -> any TokenBackend {
    ScriptedTokenBackend(model: self, contextLength: min(configuration.contextSize, trainedContextLength))
  }

  /// What the script prefers after `context`; lets another script build on this model's.
  public func preferences(after context: [Token]) -> [Token: Float] { script(context) }
}

/// Lets a script refer to the model it belongs to without a retain cycle.
private final class ModelHolder: @unchecked Sendable {
  weak var model: ScriptedTokenModel?
}

/// The scripted model's "context": remembers tokens and asks the script for logits.
final class ScriptedTokenBackend: TokenBackend {
  let model: ScriptedTokenModel
  let contextLength: Int
  private(set) var cachedTokens: [Token] = []
  /// One buffer per output an evaluation may return.
  private let logits: [UnsafeMutableBufferPointer<Float>]

  init(model: ScriptedTokenModel, contextLength: Int) {
    self.model = model
    self.contextLength = contextLength
    logits = (0..<Self.maximumOutputs).map { _ in .allocate(capacity: model.vocabularySize) }
  }

  deinit {
    for buffer in logits { buffer.deallocate() }
  }

  private(set) var partBoundaries = PartBoundaries()

  func truncateCache(to count: Int) {
    if count < cachedTokens.count { cachedTokens.removeSubrange(count...) }
    partBoundaries.truncate(to: count)
  }

  func markPartBoundary() { partBoundaries.mark(cachedTokens.count) }

  var decodeCosts: DecodeCosts? { model.decodeCosts }

  /// With `candidates`, every other logit is -infinity: the generator must not rely on them.
  func evaluate(
    _ tokens: ArraySlice<Token>, outputs: Int, candidates: [[Token]]?, cancellation flag: CancellationFlag
  ) throws -> [UnsafeBufferPointer<Float>] {
    try Self.checkOutputs(outputs, tokens: tokens.count, candidates: candidates)
    guard cachedTokens.count + tokens.count <= contextLength else {
      throw EngineError(.contextFull, "\(cachedTokens.count + tokens.count) tokens do not fit \(contextLength)")
    }
    for token in tokens {
      if flag.isCancelled { throw EngineError(.cancelled, "cancelled during prompt evaluation") }
      cachedTokens.append(token)
    }
    model.evaluationCount.withLock { $0 += 1 }
    return (0..<outputs).map { index in
      let buffer = logits[index]
      buffer.update(repeating: model.baseLogit)
      let context = Array(cachedTokens.dropLast(outputs - 1 - index))
      for (token, value) in model.preferences(after: context) { buffer[Int(token)] = value }
      if index == 0 && candidates != nil { model.candidateCount.withLock { $0 += 1 } }
      if let wanted = candidates?[index] {
        let kept = Set(wanted)
        for token in buffer.indices where !kept.contains(Token(token)) { buffer[token] = -.infinity }
      }
      return UnsafeBufferPointer(buffer)
    }
  }
}
