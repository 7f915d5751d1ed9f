extension LanguageModelExecutorGenerationChannel {
  /// Tool calls the model makes: builds a `Transcript.ToolCalls` entry.
  ///
  /// Several calls in one entry are parallel calls; the session runs them after the invocation
  /// ends.
  ///
  /// Matches FoundationModels 27 `LanguageModelExecutorGenerationChannel.ToolCalls`.
  public struct ToolCalls: Event {
    public var entryID: String?
    public var action: Action
    public var kind: EventKind { EventKind(value: .toolCalls) }

    /// Matches FoundationModels 27 `LanguageModelExecutorGenerationChannel.ToolCalls.Action`.
    @nonexhaustive
    public enum Action: Sendable {
      case toolCall(ToolCall)
      case removeToolCall(id: String)
      case updateMetadata(Metadata)
      case updateUsage(Usage)
    }

    /// One call, by id: repeated events for the same id add to its arguments or metadata.
    ///
    /// Matches FoundationModels 27 `LanguageModelExecutorGenerationChannel.ToolCalls.ToolCall`.
    public struct ToolCall: Sendable {
      public var id: String
      public var name: String
      public var action: Action

      /// Matches FoundationModels 27 `…ToolCalls.ToolCall.Action`.
      @nonexhaustive
      public enum Action: Sendable {
        /// More of the arguments' JSON text.
        case appendArguments(ArgumentsFragment)
        case updateMetadata(Metadata)
      }

      /// Matches FoundationModels 27 `…ToolCalls.ToolCall.ArgumentsFragment`.
      public struct ArgumentsFragment: Sendable {
        public var content: String
        public var tokenCount: Int
      }
    }
  }
}

extension LanguageModelExecutorGenerationChannel.ToolCalls.Action {
  /// An event for the call `id` of the tool `name`.
  public static func toolCall(
    id: String, name: String, action: LanguageModelExecutorGenerationChannel.ToolCalls.ToolCall.Action
  ) -> Self {
    .toolCall(.init(id: id, name: name, action: action))
  }

  /// Merges `values` into the entry's metadata.
  public static func updateMetadata(_ values: [String: any Sendable & Codable & Equatable]) -> Self {
    .updateMetadata(.init(values: values))
  }

  /// Reports this invocation's token usage so far.
  public static func updateUsage(
    input: LanguageModelExecutorGenerationChannel.Usage.Input,
    output: LanguageModelExecutorGenerationChannel.Usage.Output
  ) -> Self {
    .updateUsage(LanguageModelExecutorGenerationChannel.Usage(input: input, output: output))
  }
}

extension LanguageModelExecutorGenerationChannel.ToolCalls.ToolCall.Action {
  /// More of the call's arguments (JSON text).
  public static func appendArguments(_ content: String, tokenCount: Int) -> Self {
    .appendArguments(.init(content: content, tokenCount: tokenCount))
  }

  /// Merges `values` into the call's metadata.
  public static func updateMetadata(_ values: [String: any Sendable & Codable & Equatable]) -> Self {
    .updateMetadata(.init(values: values))
  }
}

extension LanguageModelExecutorGenerationChannel.Event
where Self == LanguageModelExecutorGenerationChannel.ToolCalls {
  /// A tool-calls event.
  public static func toolCalls(
    entryID: String? = nil, action: LanguageModelExecutorGenerationChannel.ToolCalls.Action
  ) -> Self {
    LanguageModelExecutorGenerationChannel.ToolCalls(entryID: entryID, action: action)
  }
}
