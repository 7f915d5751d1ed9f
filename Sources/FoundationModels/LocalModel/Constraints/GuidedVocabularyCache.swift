import GuidedDecoding
import InferenceEngine
import Synchronization

/// The guided-decoding view of each model's vocabulary, built once per model.
///
/// Building it walks every token (151,936 on Qwen) and indexes them in tries, which takes a
/// noticeable moment; every schema request on the same model reuses it.
enum GuidedVocabularyCache {
  private static let built = Mutex<[ObjectIdentifier: Entry]>([:])

  private struct Entry: @unchecked Sendable {
    weak var model: AnyObject?
    let vocabulary: Vocabulary
  }

  static func vocabulary(for model: any TokenModel) -> Vocabulary {
    let key = ObjectIdentifier(model)
    if let entry = built.withLock({ $0[key] }), entry.model === model { return entry.vocabulary }
    var pieces: [[UInt8]] = []
    pieces.reserveCapacity(model.vocabularySize)
    var special = Set<Int>()
    var endOfSequence: [Int] = []
    for id in 0..<model.vocabularySize {
      let token = Token(id)
      let piece = model.piece(of: token)
      pieces.append(piece)
      if model.isEndOfGeneration(token) {
        endOfSequence.append(id)
      } else if piece.isEmpty {
        // Control tokens render as nothing; they are never JSON text.
        special.insert(id)
      }
    }
    let vocabulary = Vocabulary(tokens: pieces, specialTokens: special, endOfSequenceTokens: endOfSequence)
    built.withLock { $0[key] = Entry(model: model, vocabulary: vocabulary) }
    return vocabulary
  }
}
