import Foundation
import FoundationModels

/// The interactive chat: reads lines with the line editor, runs slash commands, sends the rest
/// to the model.
final class ChatREPL {
  let conversation: ChatConversation
  let context: CommandContext
  let reader: TerminalLineReader
  let turn: ChatTurn
  /// Where the chat is saved after every turn (`--session`, `--resume NAME`, `/save`), if anywhere.
  var sessionFile: URL?
  private var block = MultilineBlock()

  init(
    conversation: ChatConversation, context: CommandContext, reader: TerminalLineReader, turn: ChatTurn,
    sessionFile: URL?
  ) {
    self.conversation = conversation
    self.context = context
    self.reader = reader
    self.turn = turn
    self.sessionFile = sessionFile
  }

  var output: TextOutput { context.standardOutput }
  var notes: TextOutput { context.standardError }

  /// Runs until `/bye` or Ctrl+D.
  func run() async -> ExitCode {
    if output.isTerminal { await printBanner() }
    while true {
      let prompt = block.isOpen ? "... " : ">>> "
      switch await reader.readLine(prompt: output.styled(prompt, .bold), promptWidth: prompt.count) {
      case .endOfInput:
        return .success
      case .interrupt(let lineWasEmpty):
        block.cancel()
        if lineWasEmpty { output.line(output.styled("Use Ctrl+D or /bye to leave, /help for help.", .dim)) }
      case .line(let line):
        let wasOpen = block.isOpen
        guard case .complete(let input) = block.feed(line) else { continue }
        // A block is remembered whole: Up brings it back as one message.
        reader.remember(wasOpen || line.hasPrefix("\"\"\"") ? input : line)
        if await !handle(input) { return .success }
      }
    }
  }

  /// Handles one complete input.
  /// - Returns: false when the chat should end.
  private func handle(_ input: String) async -> Bool {
    guard !input.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return true }
    let command: SlashCommand?
    do {
      command = try SlashCommand.parse(input)
    } catch {
      notes.line(notes.styled(ChatErrorText.describe(error), .yellow))
      return true
    }
    guard let command else {
      await send(input)
      return true
    }
    return await perform(command)
  }

  /// Sends a prompt, then saves the session file.
  func send(_ prompt: String) async {
    _ = await turn.send(prompt)
    saveSession()
  }

  /// Writes the `--session` file; a failure is reported, not fatal.
  func saveSession() {
    guard let sessionFile else { return }
    do {
      try conversation.saveFile.write(to: sessionFile)
    } catch {
      notes.line(notes.styled("Error: ", .red) + "could not save the session: \(ChatErrorText.describe(error))")
    }
  }

  /// Prints "Context Window: used/size tokens", dimmed.
  /// - Parameter loading: whether the model may need loading first (a spinner shows meanwhile).
  func printContextWindow(loading: Bool = false) async {
    let count = { try? await self.conversation.contextUsed() }
    let counted =
      loading
      ? await ProgressSpinner.during("loading \(conversation.settings.model)…", output: notes, count) : await count()
    guard let used = counted else { return }
    output.line(output.styled(ChatStatusLine.contextWindow(used: used, size: conversation.model.contextSize), .dim))
  }

  private func printBanner() async {
    let model = conversation.model
    var line = "fm chat · \(conversation.settings.model) · "
    if let used = try? await conversation.contextUsed() {
      line += ChatStatusLine.contextWindow(used: used, size: model.contextSize)
    }
    output.line(output.styled(line, .bold))
    output.line(output.styled("Type /help for commands and keys, Ctrl+D or /bye to leave.", .dim))
  }
}
