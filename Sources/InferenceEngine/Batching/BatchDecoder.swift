/// One row of a batched decode: a token of a sequence at a position, and whether the decode
/// keeps its logits.
struct BatchRow: Equatable {
  let token: Token
  let position: Int
  let sequence: Int32
  let output: Bool
}

/// The shared context as `BatchScheduler` drives it: one decode of rows from several
/// sequences, the cache cells it removes, and the logits it reads after a decode.
///
/// Why a protocol: what the scheduler promises (what goes into a decode and in which order,
/// when an evaluation is answered, what a failed or cancelled one gets) is about its thread and
/// its plan, not about llama.cpp. `LlamaBatchDecoder` is the one real conformance; the tests
/// drive the scheduler through a scripted one that records every decode. Only the scheduler's
/// thread calls it.
protocol BatchDecoder: AnyObject {
  /// Rows one decode takes at most: the token budget of every decode.
  var capacity: Int { get }

  /// Removes `sequence`'s cells from `position` on (a tail: what the slot's cache holds past
  /// an evaluation's start, the rows of a failed decode, a padding row).
  func removeCells(of sequence: Int32, from position: Int)

  /// Makes `destination`'s cache a copy of `source`'s, replacing what it held (llama.cpp
  /// copies a whole stream, and copies the cells' contents at the start of the next decode).
  func copyCells(of source: Int32, to destination: Int32)

  /// `sequence`'s cache as bytes kept in host memory, or nil when llama.cpp cannot write it.
  func saveCells(of sequence: Int32) -> [UInt8]?

  /// Makes `sequence`'s cache the one `saved` holds (from `saveCells`), replacing what it held.
  /// - Returns: false when llama.cpp cannot read it (the sequence's cache is then empty).
  func restoreCells(_ saved: [UInt8], into sequence: Int32) -> Bool

  /// The positions `sequence`'s cache holds from the start: its last position + 1, or 0.
  func cachedCount(of sequence: Int32) -> Int

  /// Runs one decode of `rows`, in that order.
  /// - Parameter skippingOutputLayer: every output row comes with candidate lists, so the
  ///   output layer may be skipped and the candidates' logits computed alone (`OutputLayerTap`).
  /// - Returns: `llama_decode`'s status: 0 when it succeeded.
  func decode(_ rows: [BatchRow], skippingOutputLayer: Bool) -> Int32

  /// Whether the last decode skipped the output layer (it may not have, though asked to).
  var skippedOutputLayer: Bool { get }

  /// Copies the logits after row `row` of the last decode into `buffer`.
  /// - Returns: false when the decode kept none for that row.
  func copyLogits(ofRow row: Int, into buffer: UnsafeMutableBufferPointer<Float>) -> Bool

  /// Computes the logits of `candidates` after the `output`-th output row of the last decode,
  /// which skipped the output layer, into `buffer`.
  func copyLogits(of candidates: [Token], output: Int, into buffer: UnsafeMutableBufferPointer<Float>)

  /// Called after the outputs of a decode that succeeded have been read.
  func finishedDecode()
}
