import FoundationModels

/// Sends one prompt and shows the reply as it streams, then the token counts; recovers from a
/// full context window by compacting the chat and sending the prompt again.
struct ChatTurn {
  let conversation: ChatConversation
  let context: CommandContext
  let work: InterruptibleWork
  /// Whether to print the token line after the reply (the REPL, or a terminal).
  let showsStatus: Bool

  /// How a turn ended.
  enum Outcome: Equatable {
    case answered
    case interrupted
    case failed
    /// The guardrails blocked the prompt or the reply.
    case blocked
  }

  /// What one streaming attempt gave.
  private enum Attempt: Sendable {
    case completed(LanguageModelSession.Response<String>, printed: String)
    case failed(any Error, printed: String)
  }

  private var output: TextOutput { context.standardOutput }
  private var notes: TextOutput { context.standardError }
  /// Where marks and status go: the terminal.
  ///
  /// Into a pipe or file, standard output gets only the reply, and they go to standard error.
  private var screen: TextOutput { output.isTerminal ? output : notes }

  /// Sends `prompt` and prints the reply.
  func send(_ prompt: String) async -> Outcome {
    conversation.willSend(prompt)
    let promptTokens = try? await MessageTokenCounter(model: conversation.model).count(prompt: prompt)
    var retried = false
    while true {
      switch await attempt(prompt) {
      case .completed(let response, let printed):
        if !printed.hasSuffix("\n") { output.line() }
        await showStatus(promptTokens: promptTokens, response: response)
        await compactIfPastThreshold()
        return .answered
      case .failed(let error, let printed):
        if !printed.isEmpty, !printed.hasSuffix("\n") { output.line() }
        if error is CancellationError {
          screen.line(screen.styled("[stopped]", .dim))
          return .interrupted
        }
        if case .exceededContextWindowSize = error as? LanguageModelSession.GenerationError, !retried {
          if !printed.isEmpty { screen.line(screen.styled("[context full]", .dim)) }
          retried = true
          guard await compact(reason: "context full", promptTokens: promptTokens ?? 0) else { return .failed }
          continue
        }
        notes.line(notes.styled("Error: ", .red) + ChatErrorText.describe(error))
        return GuardrailViolationText.description(of: error) == nil ? .failed : .blocked
      }
    }
  }

  /// Streams one reply to standard output; Ctrl+C cancels it.
  private func attempt(_ prompt: String) async -> Attempt {
    let session = conversation.session
    let options = conversation.settings.generationOptions
    let contextOptions = conversation.settings.contextOptions
    let output = output
    return await work.run {
      var printer = SnapshotPrinter(output: output)
      do {
        let stream = session.streamResponse(to: prompt, options: options, contextOptions: contextOptions)
        for try await snapshot in stream {
          printer.show(snapshot.content, thinking: TranscriptText.reasoning(in: snapshot.transcriptEntries))
        }
        return .completed(try await stream.collect(), printed: printer.printed)
      } catch {
        return .failed(error, printed: printer.printed)
      }
    }
  }

  /// The token line (and with `verbose`, the statistics on standard error).
  private func showStatus(promptTokens: Int?, response: LanguageModelSession.Response<String>) async {
    let used = try? await conversation.contextUsed()
    let size = conversation.model.contextSize
    if showsStatus {
      let line = ChatStatusLine.afterReply(
        promptTokens: promptTokens, replyTokens: response.usage.output.totalTokenCount, used: used, size: size)
      screen.line(screen.styled(line, .dim))
    }
    if conversation.settings.verbose {
      notes.line(notes.styled(ChatStatusLine.statistics(response, used: used, size: size), .dim))
    }
  }

  /// Compacts when `summarizeAt` is set and the context is at least that full.
  private func compactIfPastThreshold() async {
    guard let percent = conversation.settings.summarizeAt,
      let used = try? await conversation.contextUsed()
    else { return }
    let full = used * 100 / conversation.model.contextSize
    if full >= percent { _ = await compact(reason: "context \(full) % full") }
  }

  /// Summarises (or trims) the chat, with a spinner and a notice.
  /// - Returns: whether the transcript was compacted.
  @discardableResult
  func compact(reason: String?, promptTokens: Int = 0) async -> Bool {
    let messages = conversation.transcript.filter { if case .instructions = $0 { false } else { true } }.count
    guard messages > 0 else {
      notes.line(notes.styled("Nothing to summarise.", .yellow))
      return false
    }
    let transcript = conversation.transcript
    let outcome: ContextCompactor.Outcome?
    do {
      let compactor = try await conversation.makeCompactor()
      let result = await ProgressSpinner.during(
        "summarising \(ChatStatusLine.count(messages, "message"))…", output: notes
      ) {
        await work.run { () -> Result<ContextCompactor.Outcome?, any Error> in
          do {
            return .success(try await compactor.compact(transcript, promptTokens: promptTokens))
          } catch {
            return .failure(error)
          }
        }
      }
      outcome = try result.get()
    } catch is CancellationError {
      notes.line(notes.styled("[summary stopped]", .dim))
      return false
    } catch {
      notes.line(notes.styled("Error: ", .red) + ChatErrorText.describe(error))
      return false
    }
    guard let outcome else { return false }
    conversation.replaceTranscript(outcome.transcript)
    var notice = outcome.notice(reason: reason)
    if let used = try? await conversation.contextUsed() {
      notice += " (\(ChatStatusLine.contextWindow(used: used, size: conversation.model.contextSize)))"
    }
    notes.line(notes.styled(notice, .yellow))
    return true
  }
}
