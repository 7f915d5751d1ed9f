/// An HTTP status code and its reason phrase.
public struct HTTPStatus: Sendable, Equatable, Hashable {
  public var code: Int
  public var reason: String

  public init(_ code: Int, _ reason: String) {
    self.code = code
    self.reason = reason
  }

  public static let ok = HTTPStatus(200, "OK")
  public static let noContent = HTTPStatus(204, "No Content")
  public static let badRequest = HTTPStatus(400, "Bad Request")
  public static let unauthorized = HTTPStatus(401, "Unauthorized")
  public static let notFound = HTTPStatus(404, "Not Found")
  public static let methodNotAllowed = HTTPStatus(405, "Method Not Allowed")
  public static let requestTimeout = HTTPStatus(408, "Request Timeout")
  public static let lengthRequired = HTTPStatus(411, "Length Required")
  public static let payloadTooLarge = HTTPStatus(413, "Payload Too Large")
  public static let uriTooLong = HTTPStatus(414, "URI Too Long")
  public static let unsupportedMediaType = HTTPStatus(415, "Unsupported Media Type")
  public static let expectationFailed = HTTPStatus(417, "Expectation Failed")
  public static let headersTooLarge = HTTPStatus(431, "Request Header Fields Too Large")
  public static let internalServerError = HTTPStatus(500, "Internal Server Error")
  public static let serviceUnavailable = HTTPStatus(503, "Service Unavailable")
}
