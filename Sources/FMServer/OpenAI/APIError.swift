import JSON

/// An error as OpenAI's API reports it: `{"error":{"message","type","param","code"}}` with its
/// HTTP status.
///
/// Every refusal of `fm serve` is one, so OpenAI clients raise their usual exceptions
/// (`BadRequestError`, `AuthenticationError`, …) with our message.
struct APIError: Error, Sendable {
  var status: HTTPStatus
  var message: String
  var type: String
  /// The request field the error is about (`messages[1].content`), if any.
  var param: String?
  var code: String?
  /// Extra header fields (`Retry-After`, `Allow`).
  var headers: [(name: String, value: String)] = []

  init(
    _ status: HTTPStatus, _ message: String, type: String? = nil, param: String? = nil, code: String? = nil,
    headers: [(name: String, value: String)] = []
  ) {
    self.status = status
    self.message = message
    self.type = type ?? (status.code >= 500 ? "server_error" : "invalid_request_error")
    self.param = param
    self.code = code
    self.headers = headers
  }

  /// A 400 about the field `param`.
  static func invalid(_ message: String, param: String?, code: String? = "invalid_value") -> APIError {
    APIError(.badRequest, message, param: param, code: code)
  }

  /// A 400 for a field this server does not take.
  static func unsupported(_ param: String, _ why: String) -> APIError {
    APIError(.badRequest, "Unsupported parameter '\(param)': \(why)", param: param, code: "unsupported_parameter")
  }

  var body: String {
    let error = JSONValue.object([
      .init(key: "message", value: .string(message)), .init(key: "type", value: .string(type)),
      .init(key: "param", value: param.map { .string($0) } ?? .null),
      .init(key: "code", value: code.map { .string($0) } ?? .null),
    ])
    return JSONValue.object([.init(key: "error", value: error)]).compactText
  }

  var response: HTTPResponse { .json(status, body, headers: headers) }

  /// The error as Anthropic's API reports it: `{"type":"error","error":{"type","message"}}`,
  /// the type named after the status.
  var anthropicBody: String {
    let type =
      switch status.code {
      case 401: "authentication_error"
      case 403: "permission_error"
      case 404: "not_found_error"
      case 413: "request_too_large"
      case 429: "rate_limit_error"
      case 503, 529: "overloaded_error"
      case 500...: "api_error"
      default: "invalid_request_error"
      }
    return JSONValue.object([
      .init(key: "type", value: .string("error")),
      .init(
        key: "error",
        value: .object([.init(key: "type", value: .string(type)), .init(key: "message", value: .string(message))])),
    ]).compactText
  }

  /// The error's response in OpenAI's shape, or Anthropic's.
  func response(anthropic: Bool) -> HTTPResponse {
    anthropic ? .json(status, anthropicBody, headers: headers) : response
  }
}
