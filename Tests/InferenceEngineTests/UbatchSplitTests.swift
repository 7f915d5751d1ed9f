import Testing

@testable import InferenceEngine

/// When llama.cpp decodes a batch as one ubatch in its own order on a cache with a stream per
/// sequence, the only case where the output-layer tap may stand in for the output layer: k
/// rows of one sequence, then k of the next id, and so on.
@Suite struct UbatchSplitTests {
  func rows(_ sequences: [Int32]) -> [BatchRow] {
    sequences.enumerated().map { BatchRow(token: 1, position: $0.offset, sequence: $0.element, output: true) }
  }

  @Test func oneUbatchInOrder() {
    for sequences: [Int32] in [[], [4], [4, 4, 4], [2, 3, 4], [0, 0, 1, 1, 2, 2]] {
      #expect(LlamaBatchDecoder.isOneUbatch(rows(sequences)), "\(sequences)")
    }
  }

  /// A gap or a step back in the ids, rows in other counts, or a sequence's rows apart.
  @Test func splitOrReordered() {
    for sequences: [Int32] in [[1, 3], [2, 1], [0, 1, 1], [0, 0, 1], [0, 1, 0, 1], [0, 0, 1, 1, 2]] {
      #expect(!LlamaBatchDecoder.isOneUbatch(rows(sequences)), "\(sequences)")
    }
  }
}
