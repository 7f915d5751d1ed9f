import Dispatch

/// One slot's `evaluate` call, waiting for the scheduler: its tokens, where they go, the
/// logits wanted, and where they are copied to.
///
/// The slot's thread creates it and blocks on `done`; the scheduler's thread alone changes it
/// until it signals `done`, after which the slot's thread alone reads it: that hand-over is
/// what makes the unchecked `Sendable` sound.
final class BatchEvaluation: @unchecked Sendable {
  let sequence: Int32
  let tokens: [Token]
  /// The position of the first token: what the slot's cache holds before them.
  let startPosition: Int
  let outputs: Int
  let candidates: [[Token]]?
  /// The most tokens the slot's cache may hold (the session's context length).
  let limit: Int
  let cancellation: CancellationFlag
  /// The slot's own buffers, one per output, each a vocabulary long: llama.cpp's output
  /// buffer is shared by every sequence and overwritten by the next decode.
  let logits: [UnsafeMutableBufferPointer<Float>]
  /// Tokens the cache holds now, from the start.
  var evaluated = 0
  /// Why it ended without its logits, if it did.
  var failure: EngineError?
  /// Whether the slot's cache was emptied (a saved cache that could not be restored into it):
  /// it holds nothing its request counted on.
  var cacheLost = false
  let done = DispatchSemaphore(value: 0)

  init(
    sequence: Int32, tokens: [Token], startPosition: Int, outputs: Int, candidates: [[Token]]?, limit: Int,
    cancellation: CancellationFlag, logits: [UnsafeMutableBufferPointer<Float>]
  ) {
    self.sequence = sequence
    self.tokens = tokens
    self.startPosition = startPosition
    self.outputs = outputs
    self.candidates = candidates
    self.limit = limit
    self.cancellation = cancellation
    self.logits = logits
  }

  /// Tokens still to evaluate.
  var remaining: Int { tokens.count - evaluated }
}
