/// Hooks: code that runs as a turn of this profile goes.
///
/// A hook runs, awaited, when the turn produces its entry — the prompt before the first model
/// invocation, each tool call before the tools run, each tool output after its tool returned,
/// the response when the model has answered — with the session's properties bound. A hook that
/// throws fails the request with its error, like any other failure (the transcript follows the
/// error policy). The hooks of the profile evaluated for that invocation run.
///
/// A hook reading `@SessionProperty(\.history)` sees the turn's conversation: the session's
/// history, then the turn's prompt (the entries the model and the tools produce are appended when
/// the turn ends). A hook may write it — see `SessionPropertyValues.history`.
extension LanguageModelSession.DynamicProfile {
  /// Runs `action` when a turn of this profile starts with its prompt.
  ///
  /// Matches FoundationModels 27 `DynamicProfile.onPrompt(perform:)`. It runs before the turn's
  /// first model invocation, with the new prompt already the last entry of `history`; what it
  /// leaves there (a trimmed window, one prompt carrying a summary and the new prompt) is what
  /// the invocation sends and what the transcript keeps.
  @_alwaysEmitIntoClient
  public func onPrompt(
    @_inheritActorContext perform action: nonisolated(nonsending) sending @escaping () async throws -> Void
  ) -> some LanguageModelSession.DynamicProfile {
    onPrompt { (_: Transcript.Prompt) in try await action() }
  }

  /// Runs `action` with the prompt when a turn of this profile starts.
  ///
  /// Matches FoundationModels 27 `DynamicProfile.onPrompt(perform:)`. As the other `onPrompt`:
  /// the prompt is already the last entry of `history`, which the action may rewrite.
  public func onPrompt(
    @_inheritActorContext perform action:
      nonisolated(nonsending) sending @escaping (Transcript.Prompt) async throws
      -> Void
  ) -> some LanguageModelSession.DynamicProfile {
    ConfiguredProfile(content: self, setting: .hook(.prompt(action)))
  }

  /// Runs `action` when the model has answered.
  ///
  /// Matches FoundationModels 27 `DynamicProfile.onResponse(perform:)`.
  @_alwaysEmitIntoClient
  public func onResponse(
    @_inheritActorContext perform action: nonisolated(nonsending) sending @escaping () async throws -> Void
  ) -> some LanguageModelSession.DynamicProfile {
    onResponse { (_: Transcript.Response) in try await action() }
  }

  /// Runs `action` with the response when the model has answered.
  ///
  /// Matches FoundationModels 27 `DynamicProfile.onResponse(perform:)`.
  public func onResponse(
    @_inheritActorContext perform action:
      nonisolated(nonsending) sending @escaping (Transcript.Response) async throws
      -> Void
  ) -> some LanguageModelSession.DynamicProfile {
    ConfiguredProfile(content: self, setting: .hook(.response(action)))
  }

  /// Runs `action` for each tool call the model makes, before the tools run.
  ///
  /// Matches FoundationModels 27 `DynamicProfile.onToolCall(perform:)`.
  @_alwaysEmitIntoClient
  public func onToolCall(
    @_inheritActorContext perform action: nonisolated(nonsending) sending @escaping () async throws -> Void
  ) -> some LanguageModelSession.DynamicProfile {
    onToolCall { (_: Transcript.ToolCall) in try await action() }
  }

  /// Runs `action` with each tool call the model makes, before the tools run.
  ///
  /// Matches FoundationModels 27 `DynamicProfile.onToolCall(perform:)`.
  public func onToolCall(
    @_inheritActorContext perform action:
      nonisolated(nonsending) sending @escaping (Transcript.ToolCall) async throws
      -> Void
  ) -> some LanguageModelSession.DynamicProfile {
    ConfiguredProfile(content: self, setting: .hook(.toolCall(action)))
  }

  /// Runs `action` for each tool output, in call order, once the round's tools have returned.
  ///
  /// Matches FoundationModels 27 `DynamicProfile.onToolOutput(perform:)`.
  @_alwaysEmitIntoClient
  public func onToolOutput(
    @_inheritActorContext perform action: nonisolated(nonsending) sending @escaping () async throws -> Void
  ) -> some LanguageModelSession.DynamicProfile {
    onToolOutput { (_: Transcript.ToolCall, _: Transcript.ToolOutput) in try await action() }
  }

  /// Runs `action` with each tool call and its output, in call order, once the round's tools
  /// have returned.
  ///
  /// Matches FoundationModels 27 `DynamicProfile.onToolOutput(perform:)`.
  public func onToolOutput(
    @_inheritActorContext perform action:
      nonisolated(nonsending) sending @escaping (
        Transcript.ToolCall, Transcript.ToolOutput
      ) async throws -> Void
  ) -> some LanguageModelSession.DynamicProfile {
    ConfiguredProfile(content: self, setting: .hook(.toolOutput(action)))
  }

  /// Runs `action` when this profile becomes the active one: at the first invocation that
  /// evaluates to it, and again after another branch was active.
  ///
  /// Matches FoundationModels 27 `DynamicProfile.onActivate(perform:)`. The session notices a
  /// change of branch when it evaluates the profile, before an invocation.
  public func onActivate(
    @_inheritActorContext perform action: sending @escaping @isolated(any) () async -> Void
  ) -> some LanguageModelSession.DynamicProfile {
    ConfiguredProfile(content: self, setting: .activate(action))
  }

  /// Runs `action` when this profile stops being the active one: at the first invocation that
  /// evaluates to another branch.
  ///
  /// Matches FoundationModels 27 `DynamicProfile.onDeactivate(perform:)`.
  public func onDeactivate(
    @_inheritActorContext perform action: sending @escaping @isolated(any) () async -> Void
  ) -> some LanguageModelSession.DynamicProfile {
    ConfiguredProfile(content: self, setting: .deactivate(action))
  }
}
