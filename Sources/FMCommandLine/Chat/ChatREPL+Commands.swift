import Foundation
import FoundationModels

extension ChatREPL {
  /// Runs a slash command.
  /// - Returns: false when the chat should end (`/bye`).
  func perform(_ command: SlashCommand) async -> Bool {
    switch command {
    case .help:
      output.line(ChatHelp.text)
    case .bye:
      return false
    case .set(let change):
      output.line(output.styled(conversation.apply(change), .dim))
      if case .instructions = change { await printContextWindow() }
      if case .model = change {
        if let local = conversation.model as? SystemLanguageModel {
          do {
            try await ChatCommand.fetchIfMissing(local, named: conversation.settings.model, context: context)
          } catch {
            notes.line(notes.styled("Error: ", .red) + ChatErrorText.describe(error))
          }
        }
        await printContextWindow(loading: true)
      }
      saveSession()
    case .show(let topic):
      await show(topic)
    case .clear:
      conversation.clear()
      output.line(output.styled("New chat started (same instructions).", .dim))
      await printContextWindow()
      saveSession()
    case .regenerate:
      guard let prompt = conversation.takeLastPromptForRegeneration() else {
        notes.line(notes.styled("Nothing to regenerate yet.", .yellow))
        return true
      }
      await send(prompt)
    case .summarize:
      if await turn.compact(reason: nil) { saveSession() }
    case .read(let path, let question):
      guard let data = FileManager.default.contents(atPath: path) else {
        notes.line(notes.styled("Error: ", .red) + "cannot read \(path)")
        return true
      }
      let text = String(decoding: data, as: UTF8.self)
      await send([question, text].compactMap { $0 }.joined(separator: "\n\n"))
    case .save(let path):
      do {
        let environment = context.environment
        let file: URL
        if let path, ChatSessions.isPath(path) {
          file = URL(fileURLWithPath: path)
        } else {
          // A session by name, saved after every turn from now on.
          let known = path == nil ? sessionFile : nil
          file = try known ?? ChatSessions.url(named: path ?? ChatSessions.newName(), environment: environment)
          sessionFile = file
        }
        try conversation.saveFile.write(to: file)
        output.line(output.styled("Saved to \(file.path).", .dim))
      } catch {
        notes.line(notes.styled("Error: ", .red) + ChatErrorText.describe(error))
      }
    case .appearance(let appearance):
      do {
        try TerminalAppearance.save(appearance, environment: context.environment)
        output.line(
          output.styled("Appearance \(appearance.rawValue) (\(TerminalAppearance.current.rawValue) colours).", .dim))
      } catch {
        notes.line(notes.styled("Error: ", .red) + ChatErrorText.describe(error))
      }
    case .history:
      let sessions = ChatSessions.saved(environment: context.environment)
      if sessions.isEmpty { output.line(output.styled("No saved sessions yet (/save NAME saves this one).", .dim)) }
      for session in sessions {
        output.line(
          "\(session.name)  \(output.styled(session.saved.formatted(date: .abbreviated, time: .shortened), .dim))")
      }
    case .load(let path):
      do {
        let file =
          ChatSessions.isPath(path)
          ? URL(fileURLWithPath: path) : try ChatSessions.url(named: path, environment: context.environment)
        conversation.restore(try ChatSaveFile.read(from: file))
        let messages = conversation.transcript.filter { if case .instructions = $0 { false } else { true } }.count
        let loaded = "Loaded \(path): \(conversation.settings.model), \(ChatStatusLine.count(messages, "message"))."
        output.line(output.styled(loaded, .dim))
        // Another model may have to be loaded first.
        await printContextWindow(loading: true)
        saveSession()
      } catch {
        notes.line(notes.styled("Error: ", .red) + ChatErrorText.describe(error))
      }
    }
    return true
  }

  private func show(_ topic: SlashCommand.ShowTopic) async {
    let model = conversation.model
    switch topic {
    case .info:
      output.line("model            \(conversation.settings.model)")
      output.line("context size     \(model.contextSize) tokens")
      if let used = try? await conversation.contextUsed() {
        output.line("context used     \(used) tokens (\(used * 100 / model.contextSize) %)")
      }
      output.line("entries          \(conversation.transcript.count)")
      output.line("session file     \(sessionFile?.path ?? "none (use --session NAME or /save FILE)")")
    case .parameters:
      conversation.settings.parameterLines.forEach { output.line($0) }
    case .instructions:
      output.line(conversation.settings.instructions ?? "(none: the model's default system prompt)")
    case .tools:
      if conversation.tools.isEmpty { output.line(output.styled("(none: start fm chat with --tools)", .dim)) }
      for tool in conversation.tools {
        output.line("\(tool.name.padding(toLength: 16, withPad: " ", startingAt: 0)) \(tool.description)")
      }
    case .tokens:
      if let used = try? await conversation.contextUsed() {
        output.line(ChatStatusLine.contextWindow(used: used, size: model.contextSize))
      }
      let counter = MessageTokenCounter(model: model)
      let baseline = (try? await counter.baseline()) ?? 0
      for entry in conversation.transcript {
        let count = (try? await counter.count(entry, baseline: baseline)).map(ChatStatusLine.tokens) ?? "[?]"
        let preview = TranscriptText.text(of: entry).replacingOccurrences(of: "\n", with: " ")
        let role = TranscriptText.role(of: entry)
        output.line("\(output.styled(count, .dim)) \(role): \(preview.prefix(60))\(preview.count > 60 ? "…" : "")")
      }
    case .transcript:
      if conversation.transcript.isEmpty { output.line(output.styled("(empty)", .dim)) }
      for entry in conversation.transcript {
        output.line(output.styled(TranscriptText.role(of: entry) + ":", .bold))
        output.line(TranscriptText.text(of: entry))
      }
    }
  }
}
