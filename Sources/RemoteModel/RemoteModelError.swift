import Foundation
import FoundationModels
import JSON

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A failure of the server or of the connection to it that no `LanguageModelError` case names.
/// The ones that have a case are reported with it: HTTP 429 as `rateLimited`, a prompt that
/// does not fit the server's context as `contextSizeExceeded`, output that does not follow the
/// requested schema as `unsupportedGenerationGuide`.
public enum RemoteModelError: Error, Sendable, CustomStringConvertible {
  /// The server answered with an error status; `message` is the server's own.
  case http(statusCode: Int, message: String)
  /// The server could not be reached, or the connection broke (after the retries).
  case connection(String)
  /// The server's answer is not the OpenAI protocol (a malformed event, an unknown tool call).
  case protocolViolation(String)

  public var description: String {
    switch self {
    case .http(let status, let message): "The server answered \(status): \(message)"
    case .connection(let message): "Cannot reach the server: \(message)"
    case .protocolViolation(let message): "The server's answer does not follow the OpenAI protocol: \(message)"
    }
  }

  /// The error a response with `status` and `body` stands for.
  static func from(status: Int, body: Data, retryAfter: TimeInterval?) -> any Error {
    let message = Self.message(in: body)
    if status == 429 {
      return LanguageModelError.rateLimited(
        .init(resetDate: retryAfter.map { Date(timeIntervalSinceNow: $0) }, debugDescription: message))
    }
    if let exceeded = contextSizeExceeded(status: status, body: body, message: message) { return exceeded }
    return RemoteModelError.http(statusCode: status, message: message)
  }

  /// The server's message: OpenAI's `{"error":{"message":…}}`, or the body's text.
  static func message(in body: Data) -> String {
    if let object = try? JSONValue(parsing: body) {
      if let message = object["error"]?["message"]?.string { return message }
      if let message = object["message"]?.string { return message }
      if let error = object["error"]?.string { return error }
    }
    let text = String(decoding: body.prefix(2000), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    return text.isEmpty ? "(no message)" : text
  }

  /// A 400 that says the prompt does not fit: llama-server's `exceed_context_size_error` (with
  /// the counts), or the words other servers use (vLLM: "maximum context length").
  private static func contextSizeExceeded(status: Int, body: Data, message: String) -> LanguageModelError? {
    guard status == 400 || status == 413 else { return nil }
    let error = (try? JSONValue(parsing: body))?["error"]
    let type = error?["type"]?.string ?? ""
    let lowered = message.lowercased()
    guard
      type == "exceed_context_size_error" || lowered.contains("context length") || lowered.contains("context size")
        || lowered.contains("context window")
    else { return nil }
    return .contextSizeExceeded(
      .init(
        contextSize: error?["n_ctx"]?.integer ?? 0, tokenCount: error?["n_prompt_tokens"]?.integer ?? 0,
        debugDescription: message))
  }
}

/// When a failed request is sent again: connection failures and HTTP 429 and 503, before any
/// token has arrived, with jittered exponential backoff or the server's `Retry-After`.
struct RetryPolicy: Sendable {
  var maximumRetries = 2
  var baseDelay = 0.5
  /// A server that asks for a longer wait than this is not retried: the caller hears of it.
  var longestWait = 30.0

  /// Whether a response with `status` may be retried.
  static func isRetryable(status: Int) -> Bool { status == 429 || status == 503 }

  /// Whether a transport error may be retried: the connection failed or was lost.
  static func isRetryable(_ error: any Error) -> Bool {
    guard let error = error as? URLError else { return false }
    return [.cannotConnectToHost, .networkConnectionLost, .notConnectedToInternet, .cannotFindHost, .timedOut]
      .contains(error.code)
  }

  /// The wait before retry number `attempt` (from 1), or nil when there is none left.
  /// - Parameter retryAfter: the server's `Retry-After`, when it gave one.
  func delay(beforeRetry attempt: Int, retryAfter: TimeInterval?, jitter: Double = .random(in: 0.5...1.5))
    -> TimeInterval?
  {
    guard attempt <= maximumRetries else { return nil }
    if let retryAfter { return retryAfter <= longestWait ? retryAfter : nil }
    return baseDelay * pow(2, Double(attempt - 1)) * jitter
  }

  /// `Retry-After` in seconds: a number, or an HTTP date.
  static func retryAfter(_ response: HTTPURLResponse) -> TimeInterval? {
    guard let value = response.value(forHTTPHeaderField: "Retry-After")?.trimmingCharacters(in: .whitespaces)
    else { return nil }
    if let seconds = TimeInterval(value) { return max(seconds, 0) }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
    return formatter.date(from: value).map { max($0.timeIntervalSinceNow, 0) }
  }
}
