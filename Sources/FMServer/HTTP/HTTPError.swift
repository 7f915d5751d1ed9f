/// A request the HTTP layer refuses before any route sees it: its status and why.
///
/// The connection is closed after the answer, since what follows on it cannot be trusted to be the
/// start of a request.
public struct HTTPError: Error, Sendable, Equatable {
  public var status: HTTPStatus
  public var message: String

  public init(_ status: HTTPStatus, _ message: String) {
    self.status = status
    self.message = message
  }
}
