/// Server-sent events on a response writer: the response (200, `text/event-stream`) begins with
/// the first event, so that until then a request may still be refused with its own status.
struct EventStream {
  let writer: ResponseWriter
  /// Header fields beside the event stream's own (CORS).
  let headers: [(name: String, value: String)]

  var hasStarted: Bool { writer.hasStarted }

  /// Sends `data` as one event, named `event` where given.
  func send(event: String? = nil, data: String) async throws {
    if !writer.hasStarted {
      try await writer.startStream(
        status: .ok, headers: headers + [("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache")])
    }
    let name = event.map { "event: \($0)\n" } ?? ""
    try await writer.sendChunk(Array("\(name)data: \(data)\n\n".utf8))
  }

  func end() async throws { try await writer.endStream() }

  /// Whether an error after the stream began is told in the stream: not when the client went away
  /// or the request was cancelled (nobody would read it).
  static func reports(_ error: any Error) -> Bool {
    !(error is CancellationError) && !(error is SocketConnection.Failure)
  }
}
