import CLlama
import Foundation
import Synchronization

/// A text's embedding on a model: the mean of the last layer's hidden states over the text's
/// first ``tokenLimit`` tokens, scaled to unit length — what a classifier reads to judge a text
/// with the model's knowledge of words it never saw in training (the guardrails' probe).
///
/// It owns a context of its own (embeddings on, mean pooling), so it never touches a session's
/// cache; one text is embedded at a time.
public final class LlamaEmbedder: Sendable {
  /// The most tokens of a text that are read: the opening of a long text.
  public static let tokenLimit = 256

  private let model: LlamaModel
  private let context: Mutex<EmbeddingContext>
  /// The embedding's length (the model's hidden size).
  public let dimension: Int

  /// - Throws: `EngineError.Code.contextCreationFailed` with llama.cpp's reason.
  public init(model: LlamaModel, threads: Int = CPUTopology.physicalCores) throws {
    self.model = model
    dimension = Int(llama_model_n_embd(model.handle))
    context = Mutex(try EmbeddingContext(model: model, threads: threads))
  }

  /// The unit-length mean of the last hidden layer over `text`'s first ``tokenLimit`` tokens
  /// (no special tokens added); all zeros for a text with no tokens.
  /// - Throws: `EngineError.Code.decodeFailed` when llama.cpp cannot evaluate the tokens.
  public func embedding(of text: String) throws -> [Float] {
    // No token is longer than 16 characters in practice: a long text is not tokenized whole.
    let tokens = model.tokenize(String(text.prefix(Self.tokenLimit * 16)), parseSpecial: false).prefix(Self.tokenLimit)
    guard !tokens.isEmpty else { return [Float](repeating: 0, count: dimension) }
    return try context.withLock { try $0.embedding(of: tokens, dimension: dimension) }
  }
}

/// The context and batch behind ``LlamaEmbedder``.
private struct EmbeddingContext: ~Copyable {
  let handle: OpaquePointer
  let batch: LlamaBatch

  init(model: LlamaModel, threads: Int) throws {
    var parameters = llama_context_default_params()
    let size = UInt32(LlamaEmbedder.tokenLimit)
    parameters.n_ctx = size
    // Pooling reads a sequence's tokens from one ubatch: the whole text is one decode.
    parameters.n_batch = size
    parameters.n_ubatch = size
    parameters.n_seq_max = 1
    parameters.embeddings = true
    parameters.pooling_type = LLAMA_POOLING_TYPE_MEAN
    parameters.n_threads = Int32(threads)
    parameters.n_threads_batch = Int32(threads)
    parameters.no_perf = true
    // llama_init_from_model: returns NULL on failure, with the reason in the log.
    let (created, log) = LlamaRuntime.capturingLog { llama_init_from_model(model.handle, parameters) }
    guard let created else {
      throw EngineError(.contextCreationFailed, "cannot create an embedding context: \(log.text)")
    }
    handle = created
    batch = LlamaBatch(capacity: LlamaEmbedder.tokenLimit)
  }

  deinit {
    llama_free(handle)
  }

  func embedding(of tokens: ArraySlice<Token>, dimension: Int) throws -> [Float] {
    // Each text starts from an empty cache at position 0.
    llama_memory_clear(llama_get_memory(handle), true)
    batch.fill(tokens, startPosition: 0, outputs: tokens.count)
    // llama_decode: 0 on success; with mean pooling the sequence's pooled state is kept.
    let status = ComputeThread.run { llama_decode(handle, batch.batch) }
    guard status == 0, let pooled = llama_get_embeddings_seq(handle, 0) else {
      throw EngineError(.decodeFailed, "llama.cpp could not embed \(tokens.count) tokens (status \(status))")
    }
    var values = Array(UnsafeBufferPointer(start: pooled, count: dimension))
    let length = values.reduce(0) { $0 + $1 * $1 }.squareRoot()
    if length > 0 { values = values.map { $0 / length } }
    return values
  }
}
