import FoundationModels

/// The chat's state: its settings, the model they describe, and the one session the chat keeps
/// across turns.
///
/// Every change goes through FoundationModels' public API: a new setting that needs another model
/// (context size, guardrails) continues the same transcript in a new session; new instructions
/// start a new chat, as in the book's app.
///
/// Used from the chat's one task only (not `Sendable`).
final class ChatConversation {
  private(set) var settings: ChatSettings
  private(set) var model: any ChatModel
  private(set) var session: LanguageModelSession
  /// The last prompt sent, for `/regen`.
  private(set) var lastPrompt: String?
  /// The tools the model may call when the settings turn tools on.
  let availableTools: [any Tool]

  /// Starts a chat; with `transcript`, continues that conversation.
  /// - Parameter model: the model to start on; by default the one `settings` name (tests pass
  ///   a scripted one).
  init(
    settings: ChatSettings, model: (any ChatModel)? = nil, transcript: Transcript? = nil, tools: [any Tool] = []
  ) {
    self.settings = settings
    self.model = model ?? settings.makeModel()
    availableTools = tools
    session = LanguageModelSession(model: .default)
    session = makeSession(transcript: transcript)
  }

  /// The tools the model may call now.
  var tools: [any Tool] { settings.usesTools ? availableTools : [] }

  /// A session on the chat's model and tools: a new chat, or one continuing `transcript`.
  private func makeSession(transcript: Transcript?) -> LanguageModelSession {
    if let transcript { return model.session(tools: tools, transcript: transcript) }
    return model.session(tools: tools, instructions: settings.instructions)
  }

  /// The transcript of the session.
  var transcript: Transcript { session.transcript }

  /// Starts a new session with the same instructions (`/clear`).
  func clear() {
    session = makeSession(transcript: nil)
    lastPrompt = nil
  }

  /// Continues with `transcript` in a new session (after compaction, `/regen`).
  func replaceTranscript(_ transcript: Transcript) {
    session = makeSession(transcript: transcript)
  }

  /// Replaces settings and transcript with a saved chat's (`/load`).
  func restore(_ file: ChatSaveFile) {
    settings = file.settings
    if let remote = model as? RemoteChatModel {
      model = remote.with(guardrails: settings.guardrails)
    } else if model is SystemLanguageModel {
      model = settings.makeModel()
    }
    session = makeSession(transcript: file.transcript)
    lastPrompt = nil
  }

  /// The chat as a save file.
  var saveFile: ChatSaveFile {
    ChatSaveFile(settings: settings, transcript: session.transcript)
  }

  /// Records the prompt about to be sent.
  func willSend(_ prompt: String) {
    lastPrompt = prompt
  }

  /// Applies a `/set` change.
  /// - Returns: what changed, for the user.
  func apply(_ change: SlashCommand.SettingChange) -> String {
    switch change {
    case .instructions(let instructions):
      settings.instructions = instructions
      clear()
      return instructions == nil ? "Instructions removed; new chat started." : "Instructions set; new chat started."
    case .model(let name):
      guard model is SystemLanguageModel else { return "The server's model is chosen with --endpoint." }
      settings.model = name
      rebuildModel()
      return "model \(name)"
    case .temperature(let temperature):
      settings.temperature = temperature
      return "temperature \(temperature.map { String($0) } ?? "default")"
    case .sampling(let sampling):
      settings.sampling = sampling
      return "sampling \(sampling.description)"
    case .maximumResponseTokens(let maximum):
      settings.maximumResponseTokens = maximum
      return "max-tokens \(maximum.map(String.init) ?? "none")"
    case .verbose(let verbose):
      settings.verbose = verbose
      return verbose ? "Statistics on." : "Statistics off."
    case .think(let think):
      settings.think = think
      return switch think {
      case true?: "Thinking on (for a model that thinks)."
      case false?: "Thinking off."
      case nil: "Thinking as the model's template decides."
      }
    case .summarizeAt(let percent):
      settings.summarizeAt = percent
      return percent.map { "Summarising once the context is \($0) % full." } ?? "Summarising only on overflow."
    case .contextSize(let size):
      settings.contextSize = size
      guard model is SystemLanguageModel else {
        return "The server sets the context size (\(model.contextSize) tokens)."
      }
      rebuildModel()
      return "context size \(model.contextSize) tokens"
    case .guardrails(let permissive):
      settings.permissiveGuardrails = permissive
      if let remote = model as? RemoteChatModel {
        model = remote.with(guardrails: settings.guardrails)
        session = makeSession(transcript: session.transcript)
      } else {
        rebuildModel()
      }
      return permissive
        ? "guardrails permissive: replies may transform unsafe content and never fail with a guardrail violation"
        : "guardrails default: unsafe prompts and replies fail with a guardrail violation"
    }
  }

  /// A new model for changed model settings, continuing the conversation so far.
  private func rebuildModel() {
    guard model is SystemLanguageModel else { return }
    let transcript = session.transcript
    model = settings.makeModel()
    session = makeSession(transcript: transcript)
  }

  /// The last prompt, with the transcript put back to before it was answered (`/regen`).
  /// - Returns: nil when nothing was sent yet.
  func takeLastPromptForRegeneration() -> String? {
    guard let lastPrompt else { return nil }
    var entries = Array(session.transcript)
    // A reply that was stopped or failed never reached the transcript; only a complete one is removed.
    if case .response? = entries.last, entries.count >= 2, case .prompt = entries[entries.count - 2] {
      entries.removeLast(2)
      replaceTranscript(Transcript(entries: entries))
    }
    return lastPrompt
  }

  /// Tokens the transcript takes in the context window (`tokenCount(for: transcript)`).
  func contextUsed() async throws -> Int {
    try await model.tokenCount(for: Array(session.transcript))
  }

  /// Tokens kept free for the next prompt and reply when compacting.
  var compactionReserve: Int {
    min(settings.maximumResponseTokens ?? Int.max, model.contextSize / 4)
  }

  /// A compactor on this chat's model: its summaries come from a second session.
  func makeCompactor() async throws -> ContextCompactor {
    let model = model
    let summaryTokens = max(model.contextSize / 4, 32)
    let instructionTokens = try await model.tokenCount(for: [
      .instructions(
        Transcript.Instructions(
          segments: [.text(Transcript.TextSegment(content: ContextCompactor.summaryInstructions))], toolDefinitions: [])
      )
    ])
    return ContextCompactor(
      contextSize: model.contextSize, reserve: compactionReserve,
      summaryInputBudget: model.contextSize - summaryTokens - instructionTokens - 16,
      countTokens: { try await model.tokenCount(for: $0) },
      summarize: { dialogue in
        let summarizer = model.session(tools: [], instructions: ContextCompactor.summaryInstructions)
        let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: summaryTokens)
        return try await summarizer.respond(to: dialogue, options: options).content
      })
  }
}
