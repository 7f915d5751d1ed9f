/// The paths `fm serve` answers, and the methods each takes.
enum Endpoint: Equatable {
  case health, models, metrics, chatCompletions
  /// `/tokenize`, `/detokenize`, `/apply-template`.
  case tokenizer
  case responses
  /// `/v1/completions`: OpenAI's legacy text completions.
  case textCompletions
  /// `/v1/responses/{id}`.
  case response(String)
  /// `/v1/responses/{id}/input_items`.
  case responseInputItems(String)
  /// Anthropic's `/v1/messages`.
  case messages
  /// Anthropic's `/v1/messages/count_tokens`.
  case countTokens

  init?(path: String) {
    switch path {
    case "/health": self = .health
    case "/v1/models": self = .models
    case "/metrics": self = .metrics
    case "/v1/chat/completions": self = .chatCompletions
    case "/tokenize", "/detokenize", "/apply-template": self = .tokenizer
    case "/v1/responses": self = .responses
    case "/v1/messages": self = .messages
    case "/v1/messages/count_tokens": self = .countTokens
    case "/v1/completions": self = .textCompletions
    default:
      let parts = path.split(separator: "/", omittingEmptySubsequences: false)
      guard parts.count >= 4, parts[0].isEmpty, parts[1] == "v1", parts[2] == "responses", !parts[3].isEmpty
      else { return nil }
      switch parts.count {
      case 4: self = .response(String(parts[3]))
      case 5 where parts[4] == "input_items": self = .responseInputItems(String(parts[3]))
      default: return nil
      }
    }
  }

  /// Whether the path is Anthropic's API, whose errors have Anthropic's shape.
  static func isAnthropic(_ path: String) -> Bool { path.hasPrefix("/v1/messages") }

  var methods: [String] {
    switch self {
    case .health, .models, .metrics, .responseInputItems: ["GET"]
    case .chatCompletions, .tokenizer, .responses, .messages, .countTokens, .textCompletions: ["POST"]
    case .response: ["GET", "DELETE"]
    }
  }
}
