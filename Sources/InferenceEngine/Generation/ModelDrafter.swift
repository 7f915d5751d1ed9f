import Foundation

/// A smaller model with the same vocabulary that guesses the next tokens of the model that
/// generates (a draft model, `Speculation.draft`), on a cache of its own that follows the text.
///
/// Each guess is the draft model's most likely token, among those the request's constraint
/// allows at that point, so a guess never leads the output out of its schema; a greedy guess
/// is a certain draft, which `Sampler.verify` confirms so that the output keeps the generating
/// model's distribution. Its cache keeps what it has in common with the text and evaluates the
/// rest: guesses the generating model refused leave it at the next guess.
///
/// Used from one thread at a time, its session's work queue.
final class ModelDrafter {
  let model: any TokenModel
  private let backend: any TokenBackend
  /// The masked logits of a constrained guess.
  private var scratch: [Float]

  /// The least probability, in the draft model's own distribution, of a guess worth
  /// evaluating: where the draft model is unsure it is mostly wrong, and a refused guess costs
  /// its row and stops the guesses after it from counting.
  static let minimumConfidence: Float = 0.5

  init(model: any TokenModel, configuration: ContextConfiguration) throws {
    self.model = model
    backend = try model.makeBackend(configuration)
    scratch = [Float](repeating: 0, count: model.vocabularySize)
  }

  /// What a decode of one row of the draft model takes on this machine, in seconds, where
  /// measured (`DecodeCosts`; measured now where it was not yet).
  var oneRowSeconds: Double? { backend.decodeCosts?.oneRowSeconds }

  /// What the draft model's evaluation of the part of `context` its cache lacks costs, in its
  /// decodes of one row (`DecodeCosts`; a row each where unmeasured).
  func catchUpCost(to context: [Token]) -> Double {
    let lacking = context.count - reusable(of: context)
    return backend.decodeCosts?.ratio(rows: lacking) ?? Double(lacking)
  }

  /// The draft model's most likely token after `context` among those `constraint` allows now,
  /// or nil where it is less sure of it than `minimumConfidence` says.
  /// - Throws: `EngineError` when the draft model's evaluation fails or is cancelled.
  func guess(after context: [Token], constraint: (any TokenConstraint)?, cancellation: CancellationFlag) throws
    -> Token?
  {
    let reused = reusable(of: context)
    backend.truncateCache(to: reused)
    let logits = try backend.evaluate(context[reused...], cancellation: cancellation)
    guard let constraint else { return Self.likeliest(logits) }
    return scratch.withUnsafeMutableBufferPointer { buffer in
      _ = buffer.update(fromContentsOf: logits)
      constraint.mask(buffer)
      return Self.likeliest(UnsafeBufferPointer(buffer))
    }
  }

  /// How much of `context` the draft model's cache holds and a guess keeps: all but its last
  /// token at most, whose logits the guess needs.
  private func reusable(of context: [Token]) -> Int {
    min(DecodeSteps.commonPrefixLength(backend.cachedTokens, context), context.count - 1)
  }

  /// The most likely token of `logits` when its probability reaches `minimumConfidence`.
  private static func likeliest(_ logits: UnsafeBufferPointer<Float>) -> Token? {
    let best = Sampler.argmax(logits)
    let top = logits[Int(best)]
    guard top > -.infinity else { return nil }
    var total: Float = 0
    for logit in logits where logit > -.infinity { total += exp(logit - top) }
    return 1 / total >= minimumConfidence ? best : nil
  }

  /// Refuses a draft model whose tokens are not `target`'s, one for one: its guesses would
  /// name other tokens.
  /// - Throws: `EngineError.Code.invalidRequest`, naming the first token that differs.
  static func checkVocabulary(of draft: any TokenModel, against target: any TokenModel) throws {
    guard draft.vocabularySize == target.vocabularySize else {
      throw EngineError(
        .invalidRequest,
        "the draft model has \(draft.vocabularySize) tokens and the model \(target.vocabularySize): a draft model must share the model's vocabulary"
      )
    }
    for id in 0..<target.vocabularySize {
      let token = Token(id)
      let drafted = draft.piece(of: token)
      let own = target.piece(of: token)
      guard drafted == own else {
        throw EngineError(
          .invalidRequest,
          "token \(id) is \(String(decoding: drafted, as: UTF8.self).debugDescription) to the draft model and \(String(decoding: own, as: UTF8.self).debugDescription) to the model: a draft model must share the model's vocabulary"
        )
      }
    }
  }
}
