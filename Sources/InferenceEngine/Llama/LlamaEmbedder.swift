import CLlama
import Foundation
import Synchronization

/// A text's embedding on a model, scaled to unit length — what a classifier reads to judge a
/// text with the model's knowledge of words it never saw in training (the guardrails' probe).
///
/// Two readings (``EmbeddingReading``): the mean of the last layer's hidden states over the
/// text's first ``tokenLimit`` tokens, or the last hidden state after the text is framed by a
/// question about it (read where the model's answer would begin). It owns a context of its own
/// (embeddings on), so it never touches a session's cache; one text is embedded at a time.
public final class LlamaEmbedder: Sendable {
  /// The most tokens of a text that are read: the opening of a long text.
  public static let tokenLimit = 256

  private let model: LlamaModel
  private let context: Mutex<EmbeddingContext>
  /// The embedding's length (the model's hidden size).
  public let dimension: Int
  public let reading: EmbeddingReading

  /// - Throws: `EngineError.Code.contextCreationFailed` with llama.cpp's reason;
  ///   `EngineError.Code.decodeFailed` when a frame's opening cannot be evaluated.
  public init(model: LlamaModel, reading: EmbeddingReading = .mean, threads: Int = CPUTopology.physicalCores) throws {
    self.model = model
    self.reading = reading
    dimension = Int(llama_model_n_embd(model.handle))
    let frame: (prefix: [Token], suffix: [Token])? =
      switch reading {
      case .mean: nil
      case .framed(let prefix, let suffix):
        (model.tokenize(prefix, parseSpecial: true), model.tokenize(suffix, parseSpecial: true))
      }
    context = Mutex(try EmbeddingContext(model: model, frame: frame, threads: threads))
  }

  /// The text's unit-length embedding, read as ``reading`` says from its first ``tokenLimit``
  /// tokens (the text's own tokens never parsed as special tokens); all zeros for a text with
  /// no tokens.
  /// - Throws: `EngineError.Code.decodeFailed` when llama.cpp cannot evaluate the tokens.
  public func embedding(of text: String) throws -> [Float] {
    // No token is longer than 16 characters in practice: a long text is not tokenized whole.
    let tokens = model.tokenize(String(text.prefix(Self.tokenLimit * 16)), parseSpecial: false).prefix(Self.tokenLimit)
    guard !tokens.isEmpty else { return [Float](repeating: 0, count: dimension) }
    return try context.withLock { try $0.embedding(of: tokens, dimension: dimension) }
  }
}

/// How ``LlamaEmbedder`` reads a text.
public enum EmbeddingReading: Sendable, Equatable {
  /// The mean of the last layer's hidden states over the text's tokens.
  case mean
  /// The last token's hidden state after `prefix`, the text and `suffix`: a question about the
  /// text put to the model, read where its answer would begin. The frame's special tokens are
  /// parsed (it is written for the model's chat format); the text's never are.
  case framed(prefix: String, suffix: String)
}

/// The context and batch behind ``LlamaEmbedder``. A frame's opening is evaluated once and
/// kept in the cache; each text is evaluated after it.
private struct EmbeddingContext: ~Copyable {
  let handle: OpaquePointer
  let batch: LlamaBatch
  let frame: (prefix: [Token], suffix: [Token])?

  init(model: LlamaModel, frame: (prefix: [Token], suffix: [Token])?, threads: Int) throws {
    self.frame = frame
    var parameters = llama_context_default_params()
    let read = LlamaEmbedder.tokenLimit + (frame?.suffix.count ?? 0)
    let size = UInt32((frame?.prefix.count ?? 0) + read)
    parameters.n_ctx = size
    // Mean pooling reads a sequence's tokens from one ubatch: the whole text is one decode.
    parameters.n_batch = size
    parameters.n_ubatch = size
    parameters.n_seq_max = 1
    parameters.embeddings = true
    parameters.pooling_type = frame == nil ? LLAMA_POOLING_TYPE_MEAN : LLAMA_POOLING_TYPE_LAST
    parameters.n_threads = Int32(threads)
    parameters.n_threads_batch = Int32(threads)
    parameters.no_perf = true
    // llama_init_from_model: returns NULL on failure, with the reason in the log.
    let (created, log) = LlamaRuntime.capturingLog { llama_init_from_model(model.handle, parameters) }
    guard let created else {
      throw EngineError(.contextCreationFailed, "cannot create an embedding context: \(log.text)")
    }
    let batch = LlamaBatch(capacity: max(read, frame?.prefix.count ?? 0))
    if let prefix = frame?.prefix, !prefix.isEmpty {
      do {
        try Self.decode(prefix[...], at: 0, handle: created, batch: batch)
      } catch {
        llama_free(created)
        throw error
      }
    }
    handle = created
    self.batch = batch
  }

  deinit {
    llama_free(handle)
  }

  func embedding(of tokens: ArraySlice<Token>, dimension: Int) throws -> [Float] {
    let start = frame?.prefix.count ?? 0
    // Each text starts from the frame's opening (or an empty cache) at its end.
    llama_memory_seq_rm(llama_get_memory(handle), 0, Int32(start), -1)
    try Self.decode(tokens + (frame?.suffix ?? []), at: start, handle: handle, batch: batch)
    guard let pooled = llama_get_embeddings_seq(handle, 0) else {
      throw EngineError(.decodeFailed, "llama.cpp kept no embedding of \(tokens.count) tokens")
    }
    var values = Array(UnsafeBufferPointer(start: pooled, count: dimension))
    let length = values.reduce(0) { $0 + $1 * $1 }.squareRoot()
    if length > 0 { values = values.map { $0 / length } }
    return values
  }

  private static func decode(_ tokens: ArraySlice<Token>, at start: Int, handle: OpaquePointer, batch: LlamaBatch)
    throws
  {
    // An embedding context outputs every token.
    batch.fill(tokens, startPosition: start, outputs: tokens.count)
    // llama_decode: 0 on success; the pooled state of the sequence is kept.
    let status = ComputeThread.run { llama_decode(handle, batch.batch) }
    guard status == 0 else {
      throw EngineError(.decodeFailed, "llama.cpp could not embed \(tokens.count) tokens (status \(status))")
    }
  }
}
