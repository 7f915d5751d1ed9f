import FMTestSupport
import Foundation
import JSON
import RemoteModel

/// One streamed POST as a client sees it: each server-sent event's JSON and when it arrived.
struct EventStreamExchange: Sendable {
  var events: [(seconds: Double, data: JSONValue)] = []
  var status = 0
  var error: String?

  /// Posts `body` to `path` on `port` and reads the event stream to its end, on a thread of
  /// its own (see `StreamedCompletion`).
  static func post(_ path: String, _ body: JSONValue, port: Int) async -> EventStreamExchange {
    let request = RawHTTPConnection.post(path, body.compactText)
    do {
      return try await onThread { read(request, port: port) }
    } catch {
      return EventStreamExchange(error: "\(error)")
    }
  }

  private static func read(_ request: String, port: Int) -> EventStreamExchange {
    var exchange = EventStreamExchange()
    let start = DispatchTime.now()
    var parser = ServerSentEventParser()
    var raw: [UInt8] = []
    func take(_ events: [String]) {
      for event in events where event != "[DONE]" {
        guard let data = try? JSONValue(parsing: event) else { continue }
        exchange.events.append((elapsed(since: start), data))
      }
    }
    do {
      let connection = try RawHTTPConnection(port: port, timeout: 600)
      try connection.send(request)
      let head = try connection.readHead()
      exchange.status = head.status
      if head.headers["transfer-encoding"] == "chunked" {
        while case let chunk = try connection.readChunk(), !chunk.isEmpty {
          raw += chunk.prefix(max(0, 2000 - raw.count))
          take(parser.feed(chunk))
        }
      } else {
        while case let bytes = try connection.readAvailable(), !bytes.isEmpty {
          raw += bytes.prefix(max(0, 2000 - raw.count))
          take(parser.feed(bytes))
        }
      }
      take(parser.finish())
      if head.status != 200 {
        exchange.error = "HTTP \(head.status): \(String(decoding: raw.prefix(300), as: UTF8.self))"
      }
    } catch {
      exchange.error = "\(error)"
    }
    return exchange
  }
}
