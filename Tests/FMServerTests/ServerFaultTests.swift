import FMServer
import FMTestSupport
import Foundation
import Testing

/// Disconnects, concurrency, the bounded queue, the API key and CORS.
@Suite(.enabled(if: TestServer.modelIsPresent), .serialized)
struct ServerFaultTests {
  @Test func aClientThatGoesAwayMidStreamFreesItsSlotAtOnce() async throws {
    let server = try TestServer.start(parallel: 1)
    let connection = try RawHTTPConnection(port: server.port)
    try connection.send(
      RawHTTPConnection.post(
        "/v1/chat/completions", TestServer.chat("Tell a very long story", maxTokens: 2000, extra: #","stream":true"#)))
    #expect(try await connection.readHead().status == 200)
    _ = try await onThread { try connection.readChunk() }  // the role chunk
    _ = try await onThread { try connection.readChunk() }  // the first content chunk: generation is under way
    connection.close()
    let metrics = try await server.metrics { TestServer.metric("fm_slots_busy", in: $0) == 0 }
    #expect(TestServer.metric("fm_slots_busy", in: metrics.text) == 0)
    // With one slot, this would wait for the 2,000 tokens if the first were still running.
    let started = Date()
    let next = try await RawHTTPConnection.exchange(
      RawHTTPConnection.post("/v1/chat/completions", TestServer.chat("Hi", maxTokens: 3)), port: server.port)
    #expect(next.status == 200)
    #expect(Date().timeIntervalSince(started) < 30)
    await server.stop()
  }

  @Test func concurrentClientsAreAllAnswered() async throws {
    let server = try TestServer.start(parallel: 2, queue: 8)
    let port = server.port
    let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
      for index in 0..<4 {
        group.addTask {
          let body = TestServer.chat("Say \(index)", maxTokens: 4, extra: index % 2 == 0 ? #","stream":true"# : "")
          return try await RawHTTPConnection.exchange(RawHTTPConnection.post("/v1/chat/completions", body), port: port)
            .status
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(statuses == [200, 200, 200, 200])
    await server.stop()
  }

  @Test func aFullQueueIsA503WithRetryAfter() async throws {
    let server = try TestServer.start(parallel: 1, queue: 0)
    let busy = try RawHTTPConnection(port: server.port)
    try busy.send(
      RawHTTPConnection.post(
        "/v1/chat/completions", TestServer.chat("Tell a long story", maxTokens: 2000, extra: #","stream":true"#)))
    #expect(try await busy.readHead().status == 200)
    let refused = try await RawHTTPConnection.exchange(
      RawHTTPConnection.post("/v1/chat/completions", TestServer.chat("Hi")), port: server.port)
    #expect(refused.status == 503)
    #expect(refused.headers["retry-after"] == "1")
    #expect(refused.error["code"] as? String == "queue_full")
    // A streamed request is refused the same way, before its stream begins: a plain 503.
    let refusedStream = try await RawHTTPConnection.exchange(
      RawHTTPConnection.post("/v1/chat/completions", TestServer.chat("Hi", extra: #","stream":true"#)),
      port: server.port)
    #expect(refusedStream.status == 503)
    #expect(refusedStream.headers["content-type"]?.hasPrefix("application/json") == true)
    #expect(refusedStream.error["code"] as? String == "queue_full")
    busy.close()
    await server.stop()
  }

  /// The slot pool is the one admission point: a request past the busy slot waits in its
  /// queue (`fm_queue_length` counts it), one past the queue is refused, and a waiter whose
  /// client goes away leaves the queue.
  @Test func aWaitingRequestIsCountedAndLeavesTheQueueWhenItsClientGoesAway() async throws {
    let server = try TestServer.start(parallel: 1, queue: 1)
    let long = TestServer.chat("Tell a long story", maxTokens: 2000, extra: #","stream":true"#)
    let busy = try RawHTTPConnection(port: server.port)
    try busy.send(RawHTTPConnection.post("/v1/chat/completions", long))
    #expect(try await busy.readHead().status == 200)
    let waiter = try RawHTTPConnection(port: server.port)
    try waiter.send(RawHTTPConnection.post("/v1/chat/completions", long))
    let queued = try await server.metrics { TestServer.metric("fm_queue_length", in: $0) == 1 }
    #expect(TestServer.metric("fm_queue_length", in: queued.text) == 1)
    #expect(TestServer.metric("fm_slots_busy", in: queued.text) == 1)
    let refused = try await RawHTTPConnection.exchange(
      RawHTTPConnection.post("/v1/chat/completions", TestServer.chat("Hi")), port: server.port)
    #expect(refused.status == 503)
    waiter.close()
    let left = try await server.metrics { TestServer.metric("fm_queue_length", in: $0) == 0 }
    #expect(TestServer.metric("fm_queue_length", in: left.text) == 0)
    // Its place is free: the next request waits again instead of being refused.
    let next = try RawHTTPConnection(port: server.port)
    try next.send(RawHTTPConnection.post("/v1/chat/completions", TestServer.chat("Hi", maxTokens: 3)))
    _ = try await server.metrics { TestServer.metric("fm_queue_length", in: $0) == 1 }
    busy.close()
    #expect(try await next.readResponse().status == 200)
    await server.stop()
  }

  @Test func anAPIKeyIsRequiredExceptForHealth() async throws {
    let server = try TestServer.start(configuration: ServerConfiguration(apiKey: "sesame"))
    let models = "GET /v1/models HTTP/1.1\r\n"
    #expect(try await RawHTTPConnection.exchange("GET /health HTTP/1.1\r\n\r\n", port: server.port).status == 200)
    let missing = try await RawHTTPConnection.exchange(models + "\r\n", port: server.port)
    #expect(missing.status == 401)
    #expect(missing.error["type"] as? String == "authentication_error")
    #expect(
      try await RawHTTPConnection.exchange(models + "Authorization: Bearer wrong\r\n\r\n", port: server.port).status
        == 401)
    #expect(
      try await RawHTTPConnection.exchange(models + "Authorization: Bearer sesame\r\n\r\n", port: server.port).status
        == 200)
    await server.stop()
  }

  @Test func corsIsOffUnlessAnOriginIsGiven() async throws {
    let preflight = "OPTIONS /v1/chat/completions HTTP/1.1\r\nOrigin: http://app\r\n\r\n"
    let closed = try TestServer.start()
    let refused = try await RawHTTPConnection.exchange(preflight, port: closed.port)
    #expect(refused.status == 405)
    #expect(refused.headers["access-control-allow-origin"] == nil)
    await closed.stop()
    let open = try TestServer.start(configuration: ServerConfiguration(corsOrigin: "http://app"))
    let allowed = try await RawHTTPConnection.exchange(preflight, port: open.port)
    #expect(allowed.status == 204)
    #expect(allowed.headers["access-control-allow-origin"] == "http://app")
    #expect(allowed.headers["access-control-allow-headers"]?.contains("Authorization") == true)
    let health = try await RawHTTPConnection.exchange("GET /health HTTP/1.1\r\n\r\n", port: open.port)
    #expect(health.headers["access-control-allow-origin"] == "http://app")
    await open.stop()
  }
}
