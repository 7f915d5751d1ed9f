import Foundation
import FoundationModels
import ModelStore

/// `fm chat`: the book's chat app in the terminal (a REPL), or one answer with a prompt.
enum ChatCommand: Subcommand {
  static let name = "chat"
  static let abstract = "Chat with the model (streaming, history, slash commands, saved sessions)."
  static let synopsis = "[PROMPT]"
  static let discussion = """
    Without PROMPT on a terminal, opens the chat; type /help there for every command and key.
    With PROMPT, or with standard input not a terminal (its text goes before PROMPT), answers
    once and exits. After each reply it shows the tokens of the prompt and the reply and
    "Context Window: used/size tokens"; when the context window is full the conversation is
    summarised in a second session and the chat goes on.

    History is kept in $XDG_STATE_HOME/fm/history (~/.local/state/fm/history); --no-history or
    FM_NO_HISTORY=1 turns it off. --session NAME keeps the chat in
    $XDG_STATE_HOME/fm/sessions/NAME.json, saved after every turn and continued next time.
    Exit codes: 0 done, 1 error, 64 usage error, 130 interrupted.
    """
  static let options: [CommandLineOption] =
    ModelOptions.options + ModelOptions.endpointOptions + ToolChoice.options + [
      .option("--instructions", "-i", value: "TEXT", help: "instructions for the session"),
      .option(
        "--guardrails", value: "MODE",
        help:
          "default | permissive (permissive: replies may transform unsafe content and never fail with a guardrail violation)"
      ),
      .option(
        "--summarize-at", value: "PERCENT", help: "summarise once the context is this full (default: on overflow)"),
      .option(
        "--resume", "-r", value: "NAME|FILE",
        help: "continue the saved session NAME (saving it after every turn), or a chat saved with /save FILE"),
      .flag("--continue", help: "continue the most recently saved session"),
      .flag("--set-default-model", help: "make --model the default model of every fm command from now on"),
      .option("--session", value: "NAME", help: "continue the named chat and save it after every turn"),
      .flag("--no-history", help: "do not read or write the line history"),
      .flag("--verbose", "-v", help: "print token counts and speed after each reply on standard error"),
    ]

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    if arguments.flag("--set-default-model") {
      guard let model = arguments.value("--model") else { throw UsageError("--set-default-model needs --model NAME") }
      if let name = try AppleModelName.resolve(model) {
        try DefaultModelFile.write(name, environment: context.environment)
        context.standardError.line("fm: \(name) is the default model from now on")
      } else {
        try? FileManager.default.removeItem(at: DefaultModelFile.url(environment: context.environment))
        context.standardError.line("fm: the default model is \(ModelCatalog.defaultChatModel.name) again")
      }
    }
    let (sessionFile, resumeFile) = try sessionFiles(arguments, environment: context.environment)
    var saved: ChatSaveFile?
    if let resumeFile {
      saved = try ChatSaveFile.read(from: resumeFile)
    } else if let sessionFile, FileManager.default.fileExists(atPath: sessionFile.path) {
      saved = try ChatSaveFile.read(from: sessionFile)
    }
    var settings = try ChatSettings(arguments, saved: saved?.settings, environment: context.environment)
    let oneShot = !arguments.positionals.isEmpty || isatty(STDIN_FILENO) == 0
    let prompt = oneShot ? try PromptInput.read(arguments.positionals, context: context) : nil

    // With --endpoint (or FM_ENDPOINT) the chat runs on the server's model.
    var remote: RemoteChatModel?
    if let server = try await ModelOptions.remoteModel(arguments, environment: context.environment) {
      remote = try await RemoteChatModel.connecting(
        to: server, guardrails: settings.guardrails)
      settings.model = server.model
    }
    let conversation = ChatConversation(
      settings: settings, model: remote, transcript: saved?.transcript, tools: BuiltInTools.all(context: context))
    if let local = conversation.model as? SystemLanguageModel {
      try await fetchIfMissing(local, named: settings.model, context: context)
    }
    // Until the model is loaded Ctrl+C keeps its default effect (exit); from then on it stops replies.
    try await ProgressSpinner.during("loading \(settings.model)…", output: context.standardError) {
      // Counting the transcript's tokens loads the model, so the first reply does not wait for it.
      _ = try await conversation.contextUsed()
    }
    if let local = conversation.model as? SystemLanguageModel {
      try await measureSpeculationCosts(of: local, context: context)
    }
    let work = InterruptibleWork()
    let interrupt = InterruptSignal { work.interrupt() }
    defer { interrupt.stop() }

    if let prompt {
      let turn = ChatTurn(
        conversation: conversation, context: context, work: work, showsStatus: context.standardOutput.isTerminal)
      let outcome = await turn.send(prompt)
      if let sessionFile { try conversation.saveFile.write(to: sessionFile) }
      switch outcome {
      case .answered: return .success
      case .interrupted: return .interrupted
      case .failed: return .failure
      case .blocked: return .guardrailViolation
      }
    }
    return await runInteractive(
      conversation, context: context, work: work, arguments: arguments, sessionFile: sessionFile)
  }

  private static func runInteractive(
    _ conversation: ChatConversation, context: CommandContext, work: InterruptibleWork, arguments: ParsedArguments,
    sessionFile: URL?
  ) async -> ExitCode {
    // The editor draws on standard output, or on standard error when the reply goes to a file.
    let screen = context.standardOutput.isTerminal ? context.standardOutput : context.standardError
    let drawDescriptor = context.standardOutput.isTerminal ? STDOUT_FILENO : STDERR_FILENO
    guard let terminal = TerminalMode(descriptor: STDIN_FILENO, outputDescriptor: drawDescriptor) else {
      context.standardError.line("fm: error: standard input is not a terminal")
      return .failure
    }
    let termination = TerminationSignals { terminal.restore() }
    defer {
      terminal.restore()
      termination.stop()
    }
    let historyOff = arguments.flag("--no-history") || !(context.environment["FM_NO_HISTORY"] ?? "").isEmpty
    let history = historyOff ? nil : LineHistoryFile(url: LineHistoryFile.defaultURL(environment: context.environment))
    let reader = TerminalLineReader(terminal: terminal, output: screen, historyFile: history)
    conversation.session.prewarm()
    let turn = ChatTurn(conversation: conversation, context: context, work: work, showsStatus: true)
    let repl = ChatREPL(
      conversation: conversation, context: context, reader: reader, turn: turn, sessionFile: sessionFile)
    return await repl.run()
  }

  /// Pulls a catalogue or Hugging Face model that is not in the cache yet, with progress on
  /// standard error, so a first `fm chat` says what it is doing instead of failing.
  /// - Throws: `ChatError` for a missing model that is neither (a wrong path).
  static func fetchIfMissing(_ model: SystemLanguageModel, named name: String, context: CommandContext)
    async throws
  {
    if !model.isAvailable { try await pull(name, context: context) }
    if let draft = model.draftModel, !SystemLanguageModel(name: draft).isAvailable {
      try await pull(draft, context: context)
    }
  }

  /// Measures what the model's guessed tokens cost on this machine where it was not measured
  /// before (once per machine and model: some seconds on a large model and a slow CPU), with a
  /// spinner, so the first answer does not wait for it silently.
  static func measureSpeculationCosts(of model: SystemLanguageModel, context: CommandContext) async throws {
    guard try await model.speculationCostsNeedMeasuring() else { return }
    try await ProgressSpinner.during(
      "measuring what guessed tokens cost on this CPU (once)…", output: context.standardError
    ) {
      try await model.measureSpeculationCosts()
    }
  }

  /// Fetches the model `name` into the store, showing progress.
  private static func pull(_ name: String, context: CommandContext) async throws {
    guard let request = try? ModelRequest(parsing: name) else {
      let names = ModelCatalog.all.map(\.name).joined(separator: ", ")
      throw ChatError("no model '\(name)': give a GGUF file, hf:OWNER/REPO[:QUANT] or one of \(names)")
    }
    try await request.pull(into: context.modelStore, progressTo: context.standardError)
  }

  /// The session the chat saves after every turn (`--session NAME`, `--resume NAME`,
  /// `--continue`), and the file it resumes from where that is another (`--resume FILE`).
  /// - Throws: `UsageError` for a session name that is not a plain name, a session that does not
  ///   exist, or `--continue` with none saved.
  static func sessionFiles(_ arguments: ParsedArguments, environment: [String: String]) throws -> (
    session: URL?, resume: URL?
  ) {
    if let name = arguments.value("--session") {
      return (try ChatSessions.url(named: name, environment: environment), nil)
    }
    if let resume = arguments.value("--resume") {
      if ChatSessions.isPath(resume) { return (nil, URL(fileURLWithPath: resume)) }
      let url = try ChatSessions.url(named: resume, environment: environment)
      guard FileManager.default.fileExists(atPath: url.path) else {
        throw UsageError("no saved session '\(resume)' (see /history in fm chat)")
      }
      return (url, nil)
    }
    if arguments.flag("--continue") {
      guard let newest = ChatSessions.saved(environment: environment).first else {
        throw UsageError("--continue: no session is saved yet")
      }
      return (try ChatSessions.url(named: newest.name, environment: environment), nil)
    }
    return (nil, nil)
  }
}
