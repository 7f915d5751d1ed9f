import Foundation
import GuidedDecoding
import RemoteModel

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One streamed OpenAI chat completion as a client sees it: when the first content arrived,
/// how long the whole stream took, the text and the tokens generated (the usage chunk's count,
/// else one per content chunk, as both servers send a token per chunk).
struct StreamedCompletion: Sendable {
  var timeToFirstToken: Double?
  var seconds = 0.0
  var content = ""
  var completionTokens = 0
  var error: String?

  /// Posts `body` (with `stream` and usage asked for) to `server`'s `/v1/chat/completions` and
  /// reads the stream to `[DONE]`.
  static func request(_ body: [JSONValue.Member], to server: URL) async -> StreamedCompletion {
    var outcome = StreamedCompletion()
    var request = URLRequest(url: server.appendingPathComponent("v1/chat/completions"))
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    let streaming: [JSONValue.Member] = [
      .init(key: "stream", value: .bool(true)),
      .init(key: "stream_options", value: .object([.init(key: "include_usage", value: .bool(true))])),
    ]
    request.httpBody = Data(JSONValue.object(body + streaming).compactText.utf8)
    let start = DispatchTime.now()
    var parser = ServerSentEventParser()
    var chunks = 0
    var usage: Int?
    do {
      for try await part in HTTPStream.parts(of: request, timeout: 600) {
        switch part {
        case .head(let head) where head.statusCode != 200:
          outcome.error = "HTTP \(head.statusCode)"
        case .head:
          break
        case .body(let data):
          for event in parser.feed(data) where event != "[DONE]" {
            let chunk = try JSONValue(parsing: event)
            if let error = chunk["error"] { outcome.error = error.compactText }
            if let tokens = chunk["usage"]?["completion_tokens"]?.intValue { usage = tokens }
            let delta = chunk["choices"]?.arrayValue?.first?["delta"]?["content"]?.stringValue ?? ""
            guard !delta.isEmpty else { continue }
            if outcome.timeToFirstToken == nil { outcome.timeToFirstToken = elapsed(since: start) }
            outcome.content += delta
            chunks += 1
          }
        }
      }
    } catch {
      outcome.error = "\(error)"
    }
    outcome.seconds = elapsed(since: start)
    outcome.completionTokens = usage ?? chunks
    return outcome
  }
}
