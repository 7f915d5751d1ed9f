import FMServer
import FMTestSupport
import Foundation
import Testing

/// The HTTP layer against raw sockets: malformed and oversized requests, slow clients,
/// keep-alive and chunked bodies. None of these reach the model.
@Suite(.enabled(if: TestServer.modelIsPresent), .serialized)
struct HTTPProtocolTests {
  static func limits() -> HTTPLimits {
    var limits = HTTPLimits()
    limits.bodyBytes = 4096
    limits.headerBytes = 2048
    limits.requestLineBytes = 512
    limits.headerCount = 20
    limits.readTimeout = 1
    limits.idleTimeout = 2
    return limits
  }

  static let malformed: [(name: String, request: String, status: Int)] = [
    ("garbage line", "HELLO\r\n\r\n", 400),
    ("two spaces", "GET  /health HTTP/1.1\r\n\r\n", 400),
    ("bad version", "GET /health HTTP/2.0\r\n\r\n", 400),
    ("no slash", "GET health HTTP/1.1\r\n\r\n", 400),
    ("method with a bad character", "GE(T /health HTTP/1.1\r\n\r\n", 400),
    ("header without colon", "GET /health HTTP/1.1\r\nHost localhost\r\n\r\n", 400),
    ("header name with space", "GET /health HTTP/1.1\r\nBad Name: x\r\n\r\n", 400),
    ("control character in a value", "GET /health HTTP/1.1\r\nX: a\u{1}b\r\n\r\n", 400),
    ("bad content-length", "POST /tokenize HTTP/1.1\r\nContent-Length: 1x\r\n\r\n", 400),
    ("negative content-length", "POST /tokenize HTTP/1.1\r\nContent-Length: -5\r\n\r\n", 400),
    ("two different lengths", "POST /tokenize HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}", 400),
    (
      "length and chunked", "POST /tokenize HTTP/1.1\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}",
      400
    ),
    ("unknown transfer coding", "POST /tokenize HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", 400),
    ("bad chunk size", "POST /tokenize HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
    ("body too large", "POST /tokenize HTTP/1.1\r\nContent-Length: 5000\r\n\r\n", 413),
    ("request line too long", "GET /" + String(repeating: "a", count: 600) + " HTTP/1.1\r\n\r\n", 414),
    (
      "too many headers",
      "GET /health HTTP/1.1\r\n" + (0..<25).map { "X-\($0): 1\r\n" }.joined() + "\r\n", 431
    ),
    ("head too large", "GET /health HTTP/1.1\r\nX: " + String(repeating: "b", count: 3000) + "\r\n\r\n", 431),
    ("unknown path", "GET /nowhere HTTP/1.1\r\n\r\n", 404),
    ("wrong method", "DELETE /health HTTP/1.1\r\n\r\n", 405),
    ("get on a post route", "GET /v1/chat/completions HTTP/1.1\r\n\r\n", 405),
  ]

  @Test func malformedRequestsGetTheirStatusAndAnOpenAIErrorBody() async throws {
    let server = try TestServer.start(limits: Self.limits())
    for (name, request, status) in Self.malformed {
      let response = try await RawHTTPConnection.exchange(request, port: server.port)
      #expect(response.status == status, "\(name)")
      #expect(response.error["message"] is String, "\(name): \(response.text)")
    }
    // After all of them, the server still answers.
    #expect(try await RawHTTPConnection.exchange("GET /health HTTP/1.1\r\n\r\n", port: server.port).status == 200)
    await server.stop()
  }

  @Test func aWrongMethodSaysWhichIsAllowed() async throws {
    let server = try TestServer.start(limits: Self.limits())
    let response = try await RawHTTPConnection.exchange(
      "POST /health HTTP/1.1\r\nContent-Length: 0\r\n\r\n", port: server.port)
    #expect(response.status == 405)
    #expect(response.headers["allow"] == "GET")
    await server.stop()
  }

  @Test func twoRequestsOnOneConnection() async throws {
    let server = try TestServer.start(limits: Self.limits())
    let connection = try RawHTTPConnection(port: server.port)
    try connection.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
    let first = try await connection.readResponse()
    try connection.send(RawHTTPConnection.post("/tokenize", #"{"content":"hello"}"#))
    let second = try await connection.readResponse()
    #expect(first.status == 200)
    #expect(first.headers["connection"] == "keep-alive")
    #expect(second.status == 200)
    #expect((second.json["tokens"] as? [Int])?.isEmpty == false)
    await server.stop()
  }

  @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
    let server = try TestServer.start(limits: Self.limits())
    let connection = try RawHTTPConnection(port: server.port)
    try connection.send("GET /health HTTP/1.1\r\n\r\nGET /v1/models HTTP/1.1\r\n\r\n")
    #expect(try await connection.readResponse().json["status"] as? String == "ok")
    #expect(try await connection.readResponse().json["object"] as? String == "list")
    await server.stop()
  }

  @Test func connectionCloseIsHonoured() async throws {
    let server = try TestServer.start(limits: Self.limits())
    let connection = try RawHTTPConnection(port: server.port)
    try connection.send("GET /health HTTP/1.1\r\nConnection: close\r\n\r\n")
    let response = try await connection.readResponse()
    #expect(response.headers["connection"] == "close")
    #expect(await connection.isClosedByServer())
    await server.stop()
  }

  @Test func aChunkedBodyIsDecoded() async throws {
    let server = try TestServer.start(limits: Self.limits())
    let body = #"{"content":"hello world"}"#
    let (first, second) = (body.prefix(10), body.dropFirst(10))
    let request =
      "POST /tokenize HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
      + "\(String(first.utf8.count, radix: 16));ext=1\r\n\(first)\r\n\(String(second.utf8.count, radix: 16))\r\n\(second)\r\n0\r\nX-Trailer: 1\r\n\r\n"
    let response = try await RawHTTPConnection.exchange(request, port: server.port)
    #expect(response.status == 200)
    #expect((response.json["tokens"] as? [Int])?.isEmpty == false)
    await server.stop()
  }

  @Test func expectContinueGetsAnInterimResponse() async throws {
    let server = try TestServer.start(limits: Self.limits())
    let connection = try RawHTTPConnection(port: server.port)
    let body = #"{"content":"hi"}"#
    try connection.send("POST /tokenize HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: \(body.utf8.count)\r\n\r\n")
    #expect(try await connection.readHead().status == 100)
    try connection.send(body)
    #expect(try await connection.readResponse().status == 200)
    await server.stop()
  }

  @Test func aSlowClientGets408AndTheConnectionCloses() async throws {
    let server = try TestServer.start(limits: Self.limits())
    let connection = try RawHTTPConnection(port: server.port)
    try connection.send("POST /tokenize HTTP/1.1\r\nContent-Length: 50\r\n\r\n{\"content\":")
    let started = Date()
    let response = try await connection.readResponse()
    #expect(response.status == 408)
    #expect(Date().timeIntervalSince(started) < 10)
    #expect(await connection.isClosedByServer())
    // Others were served meanwhile, and are after.
    #expect(try await RawHTTPConnection.exchange("GET /health HTTP/1.1\r\n\r\n", port: server.port).status == 200)
    await server.stop()
  }

  @Test func anIdleConnectionIsClosed() async throws {
    let server = try TestServer.start(limits: Self.limits())
    let connection = try RawHTTPConnection(port: server.port)
    #expect(await connection.isClosedByServer())
    await server.stop()
  }

  @Test func aSlowClientDoesNotBlockAnother() async throws {
    var limits = Self.limits()
    limits.readTimeout = 5
    let server = try TestServer.start(limits: limits)
    let slow = try RawHTTPConnection(port: server.port)
    try slow.send("GET /heal")
    let started = Date()
    #expect(try await RawHTTPConnection.exchange("GET /health HTTP/1.1\r\n\r\n", port: server.port).status == 200)
    #expect(Date().timeIntervalSince(started) < 3)
    slow.close()
    await server.stop()
  }

  @Test func shutdownStopsAcceptingAndClosesIdleConnections() async throws {
    let server = try TestServer.start(limits: Self.limits())
    let idle = try RawHTTPConnection(port: server.port)
    try idle.send("GET /health HTTP/1.1\r\n\r\n")
    _ = try await idle.readResponse()
    #expect(await server.http.shutDown(gracePeriod: 5))
    #expect(await idle.isClosedByServer())
    await #expect(throws: (any Error).self) {
      try await RawHTTPConnection.exchange("GET /health HTTP/1.1\r\n\r\n", port: server.port)
    }
  }
}
