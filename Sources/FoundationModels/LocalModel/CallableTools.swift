/// The tools a request's calls are constrained to, and how many, when they are fewer than the tools its
/// prompt shows: a server's named tool choice (OpenAI's `tool_choice: {"function": …}`,
/// Anthropic's `{"type": "tool"}`), which makes the model call that tool while the prompt
/// still lists every tool, as the client sent them.
///
/// Our addition, package-level: Apple's `enabledTools` are both what the prompt shows and what
/// may be called. Keeping the prompt's tool list the same whichever tool a turn forces keeps
/// the prompt a prefix of the next turn's, so a conversation's cached tokens stay usable.
package enum CallableTools {
  package static let metadataKey = "fm_callable_tools"
  package static let oneCallKey = "fm_one_tool_call"

  /// Metadata that restricts calls to `names` (none when nil), and to one call in the turn
  /// with `oneCall` (OpenAI's `parallel_tool_calls: false`, Anthropic's
  /// `disable_parallel_tool_use`).
  package static func metadata(_ names: [String]?, oneCall: Bool = false) -> [String: any Sendable & Codable
    & Equatable]
  {
    var metadata: [String: any Sendable & Codable & Equatable] = [:]
    if let names { metadata[metadataKey] = names }
    if oneCall { metadata[oneCallKey] = true }
    return metadata
  }

  /// Whether `metadata` allows one call only.
  static func allowsOneCall(in metadata: [String: any Sendable & Codable & Equatable]) -> Bool {
    metadata[oneCallKey] as? Bool == true
  }

  /// The names in `metadata`, or nil when calls are not restricted.
  static func names(in metadata: [String: any Sendable & Codable & Equatable]) -> Set<String>? {
    (metadata[metadataKey] as? [String]).map(Set.init)
  }
}
