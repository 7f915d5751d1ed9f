import CLlama
import Foundation
import Synchronization

/// A GGUF model loaded by llama.cpp: weights (memory-mapped), vocabulary and metadata.
///
/// Load it once and share it: any number of sessions open their own contexts on it.
/// `llama_model` is immutable after loading and llama.cpp's tokenizer API is thread-safe, so
/// the class is `Sendable`; contexts (which are not) are `LlamaContext`s.
public final class LlamaModel: TokenModel, @unchecked Sendable {
  typealias Handle = OpaquePointer

  public let path: String
  public let architecture: String
  public let description: String
  public let chatTemplate: ChatTemplate?
  public let controlTokens: ControlTokens
  public let trainedContextLength: Int
  public let vocabularySize: Int
  /// Bytes of weights (llama_model_size).
  public let weightBytes: UInt64

  let handle: Handle
  private let vocab: OpaquePointer
  /// Mapped pages to drop after load and after evaluations.
  let unusedPages: UnusedWeightPages
  private let pieceTokens = PieceTokenCache()
  /// The context of the last ended session, for the next one.
  let contexts = ContextPool()
  /// What decodes cost by their rows, per thread count and attention kernel (`DecodeCosts`).
  let costTables = Mutex<[String: DecodeCosts]>([:])

  /// Loads a GGUF file.
  /// - Throws: `EngineError` — `.modelNotFound`, `.invalidModelFile` (not GGUF, truncated,
  ///   corrupt) or `.unsupportedArchitecture`; never crashes on a bad file.
  public init(path: String) throws {
    try GGUFFileCheck.validate(path: path)
    var parameters = llama_model_default_params()
    parameters.n_gpu_layers = 0
    let (loaded, log) = LlamaRuntime.capturingLog {
      // llama_model_load_from_file: returns NULL on any failure, with the reason in the log.
      llama_model_load_from_file(path, parameters)
    }
    guard let loaded else {
      if log.text.contains("unknown model architecture") {
        throw EngineError(.unsupportedArchitecture, "\(path): \(log.text)")
      }
      throw EngineError(
        .invalidModelFile,
        "cannot load \(path): \(log.text.isEmpty ? "llama.cpp rejected the file" : log.text)")
    }
    handle = loaded
    unusedPages = UnusedWeightPages(path: path, repackedTensors: log.repackedTensors)
    // llama_model_get_vocab: owned by the model, valid as long as it is.
    guard let vocab = llama_model_get_vocab(loaded) else {
      llama_model_free(loaded)
      throw EngineError(.invalidModelFile, "\(path) has no vocabulary")
    }
    self.vocab = vocab
    self.path = path
    architecture = Self.metadata(loaded, "general.architecture") ?? "unknown"
    description = Self.metadata(loaded, "general.name") ?? URL(fileURLWithPath: path).lastPathComponent
    trainedContextLength = Int(llama_model_n_ctx_train(loaded))
    vocabularySize = Int(llama_vocab_n_tokens(vocab))
    weightBytes = llama_model_size(loaded)
    controlTokens = Self.controlTokens(vocab)
    do {
      // llama_model_chat_template(NULL | "tool_use"): the default and the tool-use template, owned by the model.
      // For one model without a template llama.cpp answers with the name of a built-in one
      // ("mistral-v7-tekken"), not Jinja: that counts as no template.
      let jinja = { (text: UnsafePointer<CChar>) -> String? in
        let source = String(cString: text)
        return source.contains("{{") || source.contains("{%") ? source : nil
      }
      let toolUse = llama_model_chat_template(loaded, "tool_use").flatMap(jinja)
      chatTemplate = try llama_model_chat_template(loaded, nil).flatMap(jinja).map {
        try Self.chatTemplate(source: $0, toolUseSource: toolUse, vocab)
      }
    } catch {
      llama_model_free(loaded)
      throw EngineError(.invalidChatTemplate, "\(path): \((error as? EngineError)?.message ?? "\(error)")")
    }
  }

  public func makeChatTemplate(source: String) throws -> ChatTemplate {
    try Self.chatTemplate(source: source, toolUseSource: nil, vocab)
  }

  /// A template for `vocab`: its `bos_token` and `eos_token`, and whether it wants the first.
  private static func chatTemplate(source: String, toolUseSource: String?, _ vocab: OpaquePointer) throws
    -> ChatTemplate
  {
    try ChatTemplate(
      source: source, bosToken: text(of: llama_vocab_bos(vocab), vocab),
      eosToken: text(of: llama_vocab_eos(vocab), vocab),
      addsBeginningOfSequence: llama_vocab_get_add_bos(vocab), toolUseSource: toolUseSource)
  }

  /// The control tokens of `vocab` (llama.cpp's `LLAMA_TOKEN_ATTR_CONTROL`) by their text.
  private static func controlTokens(_ vocab: OpaquePointer) -> ControlTokens {
    let count = llama_vocab_n_tokens(vocab)
    var texts: [(text: String, token: Token)] = []
    for token in 0..<count where isControl(token, vocab) {
      texts.append((text(of: token, vocab), token))
    }
    return ControlTokens(texts)
  }

  /// A token's text, control tokens included; empty for none (`LLAMA_TOKEN_NULL`).
  private static func text(of token: Token, _ vocab: OpaquePointer) -> String {
    guard token >= 0, llama_vocab_type(vocab) != LLAMA_VOCAB_TYPE_NONE else { return "" }
    // llama_vocab_get_text: the token's text as stored, owned by the vocabulary.
    return llama_vocab_get_text(vocab, token).map { String(cString: $0) } ?? ""
  }

  deinit {
    contexts.drain()
    llama_model_free(handle)
  }

  /// A metadata value as a string, or nil when the key is absent.
  private static func metadata(_ model: Handle, _ key: String) -> String? {
    var buffer = [CChar](repeating: 0, count: 256)
    // llama_model_meta_val_str: returns the full length (or -1), writes a NUL-terminated prefix.
    let length = llama_model_meta_val_str(model, key, &buffer, buffer.count)
    guard length >= 0 else { return nil }
    if Int(length) >= buffer.count {
      buffer = [CChar](repeating: 0, count: Int(length) + 1)
      _ = llama_model_meta_val_str(model, key, &buffer, buffer.count)
    }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  public func tokenize(_ text: String, parseSpecial: Bool) -> [Token] {
    let utf8Count = Int32(text.utf8.count)
    var tokens = [Token](repeating: 0, count: Int(utf8Count) + 8)
    // llama_tokenize: returns the count, or minus the needed count when the buffer is short.
    var count = llama_tokenize(vocab, text, utf8Count, &tokens, Int32(tokens.count), false, parseSpecial)
    if count < 0 {
      tokens = [Token](repeating: 0, count: Int(-count))
      count = llama_tokenize(vocab, text, utf8Count, &tokens, Int32(tokens.count), false, parseSpecial)
    }
    return Array(tokens.prefix(Int(max(count, 0))))
  }

  /// Tokenizes a rendered prompt, reusing the tokens of texts between control tokens (mostly
  /// one message each) seen recently.
  public func tokenize(_ prompt: RenderedPrompt) -> [Token] {
    tokenize(prompt.pieces[...]) { text in pieceTokens.tokens(of: text) { tokenize($0, parseSpecial: false) } }
  }

  public func piece(of token: Token) -> [UInt8] {
    var buffer = [CChar](repeating: 0, count: 64)
    // llama_token_to_piece(special: false): control tokens render as nothing.
    var length = llama_token_to_piece(vocab, token, &buffer, Int32(buffer.count), 0, false)
    if length < 0 {
      buffer = [CChar](repeating: 0, count: Int(-length))
      length = llama_token_to_piece(vocab, token, &buffer, Int32(buffer.count), 0, false)
    }
    return buffer.prefix(Int(max(length, 0))).map { UInt8(bitPattern: $0) }
  }

  /// Whether `token` is a control token (`LLAMA_TOKEN_ATTR_CONTROL`).
  public func isControl(_ token: Token) -> Bool { Self.isControl(token, vocab) }

  private static func isControl(_ token: Token, _ vocab: OpaquePointer) -> Bool {
    // A model without a vocabulary (llama.cpp asserts on asking one about its tokens) has none.
    llama_vocab_type(vocab) != LLAMA_VOCAB_TYPE_NONE
      && llama_vocab_get_attr(vocab, token).rawValue & LLAMA_TOKEN_ATTR_CONTROL.rawValue != 0
  }

  public var beginningOfSequence: Token? {
    // llama_vocab_get_add_bos: whether the vocabulary's tokenizer adds BOS to a sequence;
    // llama_vocab_bos: the token, or LLAMA_TOKEN_NULL (-1) where there is none.
    let token = llama_vocab_bos(vocab)
    return llama_vocab_get_add_bos(vocab) && token >= 0 ? token : nil
  }

  public func isEndOfGeneration(_ token: Token) -> Bool {
    llama_vocab_is_eog(vocab, token)
  }

  /// Bytes of the key/value cache for `contextSize` tokens at llama.cpp's default f16 cache type.
  public func keyValueCacheBytes(contextSize: Int) -> Int {
    let layers = Int(llama_model_n_layer(handle))
    let shape = attentionShape
    return layers * contextSize * shape.keyValueHeads * (shape.keySize + shape.valueSize) * MemoryLayout<Float16>.size
  }

  /// The shape of the model's attention (its first layer's, where layers differ): heads, cache
  /// heads, and the key and value sizes its metadata gives (`<arch>.attention.key_length`,
  /// `value_length`), or the embedding's size over the heads where it gives none.
  public var attentionShape: AttentionKernel.Shape {
    let heads = Int(llama_model_n_head(handle))
    let headSize = heads > 0 ? Int(llama_model_n_embd(handle)) / heads : 0
    let size = { (key: String) in
      Self.metadata(self.handle, "\(self.architecture).attention.\(key)").flatMap { Int($0) }
    }
    return AttentionKernel.Shape(
      heads: heads, keyValueHeads: Int(llama_model_n_head_kv(handle)), keySize: size("key_length") ?? headSize,
      valueSize: size("value_length") ?? headSize)
  }

  public func makeBackend(_ configuration: ContextConfiguration) throws -> any TokenBackend {
    try LlamaTokenBackend(model: self, configuration: configuration)
  }
}
