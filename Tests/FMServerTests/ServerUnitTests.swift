import FMTestSupport
import FoundationModels
import Glibc
import Testing

@testable import FMServer

/// The parts of the server that need no model: stop texts across pieces, how request
/// parameters become generation options, and the listening socket.
@Suite struct ServerUnitTests {
  @Test(arguments: [
    (["Hel", "lo wo", "rld"], ["wo"], "Hello "),
    (["a", "b", "c"], ["bc"], "a"),
    (["abc"], ["x"], "abc"),
    (["ab", "xa", "b"], ["ab"], ""),
    (["one, tw", "o, three"], ["two", ", t"], "one"),
  ])
  func stopTextsAreFoundAcrossPieces(pieces: [String], stops: [String], expected: String) {
    var filter = StopSequenceFilter(stops: stops)
    var text = pieces.map { filter.feed($0) }.joined()
    text += filter.finish()
    #expect(text == expected)
  }

  @Test func heldBackTextIsReleasedWhenItCannotBeAStop() {
    var filter = StopSequenceFilter(stops: ["END"])
    #expect(filter.feed("the E") == "the ")
    #expect(filter.feed("ND?") == "")
    #expect(filter.stopped)
    var other = StopSequenceFilter(stops: ["END"])
    #expect(other.feed("the E") == "the ")
    #expect(other.feed("xit") == "Exit")
    #expect(!other.stopped)
  }

  static func request(_ extra: String) throws -> ChatCompletionRequest {
    try ChatCompletionRequest(
      body: Array(#"{"model":"m","messages":[{"role":"user","content":"hi"}]\#(extra)}"#.utf8))
  }

  @Test func samplingParametersBecomeOptions() throws {
    #expect(try Self.request(#","temperature":0"#).options.samplingMode == .greedy)
    #expect(try Self.request(#","top_k":1"#).options.samplingMode == .greedy)
    #expect(try Self.request(#","top_k":5,"seed":3"#).options.samplingMode == .random(top: 5, seed: 3))
    #expect(
      try Self.request(#","top_p":0.5,"seed":3"#).options.samplingMode == .random(probabilityThreshold: 0.5, seed: 3))
    #expect(try Self.request(#","seed":7"#).options.samplingMode?.kind == .randomProbabilityThreshold(0.9, seed: 7))
    #expect(try Self.request("").options.samplingMode == nil)
    #expect(try Self.request(#","max_completion_tokens":9"#).options.maximumResponseTokens == 9)
    #expect(try Self.request(#","temperature":0.4"#).options.temperature == 0.4)
  }

  @Test func messagesBecomeTheTranscript() throws {
    let request = try ChatCompletionRequest(
      body: Array(
        #"{"model":"m","tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"a":{"type":"string"}}}}}],"messages":[{"role":"system","content":"S"},{"role":"developer","content":[{"type":"text","text":"D"}]},{"role":"user","content":"U"},{"role":"assistant","content":"A","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{\"a\":\"x\"}"}}]},{"role":"tool","tool_call_id":"c1","content":"T"}]}"#
          .utf8))
    let entries = Array(request.transcript)
    #expect(entries.count == 5)
    guard case .instructions(let instructions) = entries[0], case .toolCalls(let calls) = entries[3],
      case .toolOutput(let output) = entries[4]
    else {
      Issue.record("unexpected entries: \(entries)")
      return
    }
    #expect(instructions.toolDefinitions.map(\.name) == ["f"])
    #expect(calls.map(\.toolName) == ["f"])
    #expect(output.toolName == "f")
    #expect(request.options.toolCallingMode == .allowed)
  }

  /// The listening socket does not block: a connection that poll announced may be gone by the
  /// time it is accepted (reset by its client, or taken by another thread), and a blocking
  /// accept would wait for the next one, deaf to shutdown. What it accepts blocks (reads and
  /// writes have timeouts) and is closed on exec.
  @Test func theListenerNeverBlocksAndItsConnectionsDo() throws {
    let listener = try SocketListener(host: "127.0.0.1", port: 0)
    defer { listener.close() }
    // (Required: with a blocking socket the last accept below would wait for ever.)
    try #require(fcntl(listener.descriptor, F_GETFL) & O_NONBLOCK != 0)
    #expect(listener.accept(timeout: 0) == nil)
    let client = try RawHTTPConnection(port: listener.port)
    defer { client.close() }
    let connection = try #require(listener.accept(timeout: 5))
    defer { Glibc.close(connection) }
    #expect(fcntl(connection, F_GETFL) & O_NONBLOCK == 0)
    #expect(fcntl(connection, F_GETFD) & FD_CLOEXEC != 0)
    // Gone: nothing is waiting, and accepting returns at once.
    #expect(Glibc.accept(listener.descriptor, nil, nil) == -1 && errno == EAGAIN)
  }
}
