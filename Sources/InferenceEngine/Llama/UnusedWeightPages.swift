import Synchronization

/// The pages of a mapped model file that no computation needs resident, and when to drop them.
///
/// - At load, every page: repacking read about half the file through the mapping.
/// - After the first evaluation, the repacked weights' pages that fault-around brought back
///   next to the small tensors still read from the mapping (see `MappedWeights`).
/// - After every evaluation, the token-embedding table, when the model has a separate output
///   matrix: llama.cpp reads only the rows of the tokens being evaluated from it, and each such
///   fault maps a whole cached folio, so a chat would otherwise pull in most of the table for a
///   few hundred distinct tokens. With tied embeddings the output layer reads the whole table
///   every step, so it stays.
final class UnusedWeightPages: Sendable {
  private let mappedWeights: MappedWeights
  let repackedRanges: [Range<Int>]
  /// The token-embedding table, when only its rows are looked up.
  let embeddingRange: Range<Int>?
  private let repackedReleased = Atomic(false)

  /// Drops every resident page of the model file just loaded from `path`.
  /// - Parameter repackedTensors: the tensors llama.cpp copied into its repacked layout.
  init(path: String, repackedTensors: [String]) {
    mappedWeights = MappedWeights(path: path)
    mappedWeights.releaseAll()
    let tensors = (try? GGUFTensorTable(path: path).ranges) ?? [:]
    repackedRanges = repackedTensors.compactMap { tensors[$0] }
    let embeddingIsOnlyLookedUp = tensors["output.weight"] != nil && !repackedTensors.contains("token_embd.weight")
    embeddingRange = embeddingIsOnlyLookedUp ? tensors["token_embd.weight"] : nil
  }

  /// Called by a context after each evaluation (from any thread).
  func releaseAfterEvaluation() {
    if !repackedRanges.isEmpty, !repackedReleased.exchange(true, ordering: .relaxed) {
      mappedWeights.release(fileRanges: repackedRanges)
    }
    if let embeddingRange { mappedWeights.release(fileRanges: [embeddingRange]) }
  }
}
