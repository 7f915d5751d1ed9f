/// A language model as the engine sees it: a vocabulary, a chat template, and a way to open a
/// context that turns tokens into next-token logits.
///
/// `LlamaModel` is the real one; tests use a scripted model (FMTestSupport) that runs the same
/// generator, prefix cache, samplers and constraints without weights.
public protocol TokenModel: AnyObject, Sendable {
  /// The number of tokens in the vocabulary (the length of a logits vector).
  var vocabularySize: Int { get }
  /// The longest context the model was trained for.
  var trainedContextLength: Int { get }
  /// How conversations are turned into prompt text for this model: the template in its file,
  /// or nil for a model without one (a base model), which needs a template given to chat.
  var chatTemplate: ChatTemplate? { get }
  /// The vocabulary's control tokens, found by their text in template text only.
  var controlTokens: ControlTokens { get }
  /// A chat template from Jinja source, for this vocabulary (its `bos_token` and `eos_token`).
  /// - Throws: `EngineError(.invalidChatTemplate)` when it does not parse.
  func makeChatTemplate(source: String) throws -> ChatTemplate

  /// Splits text into tokens.
  /// - Parameter parseSpecial: whether control-token text such as `<|im_start|>` becomes the
  ///   control token. Only template text sets it; user content never does, so a user cannot
  ///   forge a turn boundary.
  func tokenize(_ text: String, parseSpecial: Bool) -> [Token]
  /// Tokenizes a rendered prompt: control tokens from template text only (see the default
  /// implementation).
  func tokenize(_ prompt: RenderedPrompt) -> [Token]
  /// The bytes a token stands for when it appears in output (empty for control tokens).
  func piece(of token: Token) -> [UInt8]
  /// Whether a token ends the model's turn (end of sequence, end of turn).
  func isEndOfGeneration(_ token: Token) -> Bool
  /// The token that begins a sequence where the vocabulary asks for one before any text
  /// (llama.cpp's `add_bos`), as a raw prompt, evaluated without a chat template, needs; nil
  /// where it does not.
  var beginningOfSequence: Token? { get }
  /// Opens a context with its own key/value cache.
  ///
  /// The cache may already hold tokens (see `TokenBackend.cachedTokens`): a context that an ended
  /// session gave back keeps them, so the next session reuses what it has in common with them.
  func makeBackend(_ configuration: ContextConfiguration) throws -> any TokenBackend
}

extension TokenModel {
  /// None: a vocabulary of our own (a scripted test model) asks for no such token.
  public var beginningOfSequence: Token? { nil }

  /// The tokens of `text` as a raw prompt, without a chat template: the text's plain tokens
  /// (text never becomes a control token), after the `beginningOfSequence` token where the
  /// vocabulary asks for one, as llama-server tokenizes a completion's prompt.
  public func rawPromptTokens(_ text: String) -> [Token] {
    (beginningOfSequence.map { [$0] } ?? []) + tokenize(text, parseSpecial: false)
  }

  /// Turns tokens back into text, special tokens left out.
  public func detokenize(_ tokens: some Sequence<Token>) -> String {
    var decoder = UTF8StreamDecoder()
    var text = ""
    for token in tokens { text += decoder.decode(piece(of: token)) }
    return text + decoder.finish()
  }
}

/// Settings for one context.
public struct ContextConfiguration: Sendable, Equatable {
  /// Tokens the context holds: instructions, prompts and responses together.
  public var contextSize: Int
  /// Tokens evaluated per `llama_decode` call during prefill.
  public var batchSize: Int
  /// Threads for decoding and prefill.
  public var threads: Int
  /// The attention kernel; nil for the one measured faster on this machine for the model
  /// (`AttentionKernel.measured(for:threads:)`).
  public var attentionKernel: AttentionKernel?

  public init(
    contextSize: Int = 4096, batchSize: Int = 512, threads: Int = CPUTopology.physicalCores,
    attentionKernel: AttentionKernel? = nil
  ) {
    self.contextSize = contextSize
    self.batchSize = batchSize
    self.threads = threads
    self.attentionKernel = attentionKernel
  }
}
