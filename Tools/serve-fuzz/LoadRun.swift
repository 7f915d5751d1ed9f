import FMTestSupport
import Foundation

/// Concurrent streaming clients against a running `fm serve` for a while: each sends
/// streamed chat completions one after another and checks every stream is whole and
/// well-formed (status 200, a role-only first chunk, one id, content deltas, a final chunk
/// with a finish reason, the usage chunk, `[DONE]` last).
struct LoadRun {
  let port: Int
  let model: String
  let clients: Int
  let seconds: Double
  let maximumTokens: Int

  struct Tally: Sendable {
    var streams = 0
    var wellFormed = 0
    var failures: [String: Int] = [:]
    var completionTokens = 0
    var longestSeconds = 0.0
  }

  func run() async -> Tally {
    let tally = Locked(Tally())
    let deadline = Date().addingTimeInterval(seconds)
    await withTaskGroup(of: Void.self) { group in
      for client in 0..<clients {
        group.addTask {
          _ = try? await onThread {
            var round = 0
            while Date() < deadline {
              let started = Date()
              let verdict = stream(prompt: "Client \(client), request \(round): tell me about the sea.")
              round += 1
              tally.withLock { tally in
                tally.streams += 1
                tally.longestSeconds = max(tally.longestSeconds, Date().timeIntervalSince(started))
                switch verdict {
                case .success(let tokens):
                  tally.wellFormed += 1
                  tally.completionTokens += tokens
                case .failure(let failure):
                  tally.failures[failure.description, default: 0] += 1
                }
              }
            }
          }
        }
      }
    }
    return tally.withLock { $0 }
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// One streamed request; its completion tokens when the stream was well-formed.
  private func stream(prompt: String) -> Result<Int, Failure> {
    let body =
      #"{"model":"\#(model)","messages":[{"role":"user","content":"\#(prompt)"}],"max_tokens":\#(maximumTokens),"stream":true,"stream_options":{"include_usage":true}}"#
    do {
      let connection = try RawHTTPConnection(port: port, timeout: 600)
      try connection.send(RawHTTPConnection.post("/v1/chat/completions", body))
      let response = try connection.readResponse()
      guard response.status == 200 else { return .failure(Failure(description: "status \(response.status)")) }
      return Self.check(events: response.text.components(separatedBy: "\n\n").filter { !$0.isEmpty })
    } catch {
      return .failure(Failure(description: "transport: \(error)"))
    }
  }

  static func check(events: [String]) -> Result<Int, Failure> {
    func fail(_ why: String) -> Result<Int, Failure> { .failure(Failure(description: why)) }
    guard events.allSatisfy({ $0.hasPrefix("data: ") }) else { return fail("an event is not data") }
    guard events.last == "data: [DONE]" else { return fail("no [DONE] at the end") }
    let chunks = events.dropLast().compactMap {
      (try? JSONSerialization.jsonObject(with: Data($0.dropFirst(6).utf8))) as? [String: Any]
    }
    guard chunks.count == events.count - 1 else { return fail("a chunk is not JSON") }
    guard chunks.count >= 3, Set(chunks.compactMap { $0["id"] as? String }).count == 1 else {
      return fail("not one id")
    }
    let choices = chunks.dropLast().map { ($0["choices"] as? [[String: Any]])?.first }
    guard let first = choices.first??["delta"] as? [String: Any], first["role"] as? String == "assistant" else {
      return fail("the first chunk has no role")
    }
    guard let final = choices.last ?? nil, ["stop", "length"].contains(final["finish_reason"] as? String),
      (final["delta"] as? [String: Any])?.isEmpty == true
    else { return fail("no final chunk with a finish reason") }
    guard choices.dropLast().allSatisfy({ $0?["finish_reason"] is NSNull }) else {
      return fail("a finish reason before the end")
    }
    guard let usage = chunks.last?["usage"] as? [String: Any], let tokens = usage["completion_tokens"] as? Int,
      tokens >= 1
    else { return fail("no usage chunk") }
    return .success(tokens)
  }
}
