import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Downloads one file over HTTP into a local file, picking up after a dropped connection with
/// a `Range` request for the bytes that had not arrived.
///
/// The local file is the download's only state: whatever it holds when a transfer starts is
/// taken as the beginning of the body (a pull killed earlier resumes the same way), a server
/// that ignores `Range` (HTTP 200) has the file restarted from nothing, and a transfer that ends
/// early, with an error or without, is followed by another from the new end. The caller checks
/// the finished file's size and hash, which a `GrowingFileDigest` computes as the file grows,
/// so the check need not read it again.
///
/// A plain `http` address is fetched by `PlainHTTPTransfer`, anything else (the Hub's `https`)
/// by URLSession.
struct ResumableDownload {
  /// What `run` reports as it goes.
  enum Event: Sendable, Equatable {
    /// A transfer asks for the bytes from `byte` on; those before it are in the file already.
    case resuming(fromByte: Int64)
    /// The file has `bytes` so far, arriving at `bytesPerSecond` over the current transfer.
    case received(bytes: Int64, bytesPerSecond: Double)
  }

  /// The file's address; redirects are followed.
  let url: URL
  /// Sent as `Authorization: Bearer` to the file's host, never to a host a redirect leads to
  /// (the Hub sends files from a CDN with their own signed addresses).
  let token: String?
  /// The file the bytes go to; created when missing.
  let destination: URL
  /// The size the file has when complete.
  let byteCount: Int64
  /// Transfers in a row that may end without adding a byte before the download gives up.
  var attemptsWithoutProgress = 4
  /// How long a connection may stay silent before it counts as dropped.
  var idleTimeout: TimeInterval = 60

  /// Fetches the bytes `destination` lacks.
  ///
  /// - Parameters:
  ///   - hashing: Whether to hash the file as it grows, from the bytes it holds already.
  ///   - progress: Called from the calling task when a transfer resumes, and as bytes arrive
  ///     (at most about ten times a second).
  ///   - httpError: Makes the error for an HTTP status other than 200, 206 and redirects.
  /// - Returns: With `hashing`, the file's digest, which may still be hashing the last bytes:
  ///   its `finish()` gives the sha256.
  /// - Throws: what `httpError` makes; `ModelStoreError(.fetchFailed)` after transfers that
  ///   stopped adding bytes, or when the file cannot be written; `CancellationError`.
  func run(
    hashing: Bool, progress: (Event) -> Void, httpError: (Int) -> ModelStoreError
  ) async throws -> GrowingFileDigest? {
    if !FileManager.default.fileExists(atPath: destination.path) {
      guard FileManager.default.createFile(atPath: destination.path, contents: nil) else {
        throw ModelStoreError(.fileSystem, "cannot create \(destination.path)")
      }
    }
    let digest = hashing ? try GrowingFileDigest(of: destination) : nil
    do {
      try await fetch(digest: digest, progress: progress, httpError: httpError)
    } catch {
      digest?.stop()
      throw error
    }
    return digest
  }

  /// Asks for what the file lacks until it is complete; `digest` hears of every byte it gains
  /// and of every restart from nothing.
  private func fetch(
    digest: GrowingFileDigest?, progress: (Event) -> Void, httpError: (Int) -> ModelStoreError
  ) async throws {
    var failures = 0
    var lastFailure = ""
    digest?.fileGrew(to: min(try currentSize(), byteCount))
    while true {
      try Task.checkCancellation()
      var start = try currentSize()
      if start > byteCount {
        digest?.restart()
        try truncate(to: 0)
        start = 0
      }
      if start == byteCount { return }
      let outcome = await transfer(from: start, digest: digest, progress: progress)
      let end = try currentSize()
      switch outcome {
      case .finished where end >= byteCount:
        return
      case .finished:
        // A body shorter than announced, without an error: the connection was closed early.
        lastFailure = "the connection closed after \(end) of \(byteCount) bytes"
      case .status(let status):
        throw httpError(status)
      case .failed(let error):
        if error is CancellationError || (error as? URLError)?.code == .cancelled {
          try Task.checkCancellation()
        }
        if let error = error as? ModelStoreError { throw error }
        lastFailure = error.localizedDescription
      }
      failures = end > start ? 1 : failures + 1
      guard failures < attemptsWithoutProgress else {
        throw ModelStoreError(
          .fetchFailed,
          "downloading \(url.absoluteString) stopped at \(end) of \(byteCount) bytes: \(lastFailure)")
      }
      // A short pause before asking again, longer after each transfer that brought nothing.
      try await Task.sleep(for: .milliseconds(200 * failures))
    }
  }

  /// How one transfer ended.
  private enum Outcome {
    /// The server sent the whole body it announced (which may still be short of the file).
    case finished
    /// The server answered a status that retrying does not change.
    case status(Int)
    /// The connection failed or dropped; `error` says how.
    case failed(any Error)
  }

  /// One request for the bytes from `start` on, appended to the file as they arrive.
  private func transfer(from start: Int64, digest: GrowingFileDigest?, progress: (Event) -> Void) async -> Outcome {
    if start > 0 { progress(.resuming(fromByte: start)) }
    do {
      return try await transfer(
        from: start, of: url, token: token, plainly: PlainHTTPTransfer.handles(url), digest: digest,
        progress: progress)
    } catch {
      // URLSession, which takes the address handed over, hands nothing over.
      let handedOver = try? await transfer(
        from: start, of: error.url, token: error.sendsToken ? token : nil, plainly: false, digest: digest,
        progress: progress)
      return handedOver ?? .failed(error)
    }
  }

  /// One request of `address`, by the plain HTTP client or by URLSession.
  ///
  /// - Throws: `PlainHTTPTransfer.HandOver` when the plain client leaves the address to URLSession.
  private func transfer(
    from start: Int64, of address: URL, token: String?, plainly: Bool, digest: GrowingFileDigest?,
    progress: (Event) -> Void
  ) async throws(PlainHTTPTransfer.HandOver) -> Outcome {
    let handle: FileHandle
    do {
      handle = try FileHandle(forWritingTo: destination)
      try handle.seek(toOffset: UInt64(start))
    } catch {
      return .failed(ModelStoreError(.fileSystem, "cannot write \(destination.path): \(error)"))
    }
    let (stream, continuation) = AsyncThrowingStream.makeStream(
      of: PartialFileWriter.Arrival.self, bufferingPolicy: .bufferingNewest(1))
    let writer = PartialFileWriter(handle: handle, start: start, digest: digest, continuation: continuation)
    var session: URLSession?
    defer { session?.finishTasksAndInvalidate() }
    if plainly {
      let transfer = PlainHTTPTransfer(url: address, token: token, firstByte: start, idleTimeout: idleTimeout)
      continuation.onTermination = { _ in transfer.cancel() }
      transfer.start(writer: writer)
    } else {
      var request = URLRequest(url: address)
      if start > 0 { request.setValue("bytes=\(start)-", forHTTPHeaderField: "Range") }
      if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
      // Compressed bodies would not line up with byte ranges.
      request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
      let configuration = URLSessionConfiguration.ephemeral
      configuration.timeoutIntervalForRequest = idleTimeout
      configuration.timeoutIntervalForResource = 7 * 24 * 60 * 60
      let delegate = URLSessionTransfer(writer: writer)
      session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
      let task = session?.dataTask(with: request)
      continuation.onTermination = { _ in task?.cancel() }
      task?.resume()
    }
    let began = ContinuousClock.now
    do {
      for try await arrival in stream {
        let seconds = (ContinuousClock.now - began) / .seconds(1)
        let rate = seconds > 0 ? Double(arrival.bytes - arrival.start) / seconds : 0
        progress(.received(bytes: arrival.bytes, bytesPerSecond: rate))
      }
    } catch let error as PartialFileWriter.StatusError {
      return .status(error.status)
    } catch let handOver as PlainHTTPTransfer.HandOver {
      throw handOver
    } catch {
      return .failed(error)
    }
    return .finished
  }

  private func currentSize() throws -> Int64 {
    do {
      let attributes = try FileManager.default.attributesOfItem(atPath: destination.path)
      return (attributes[.size] as? NSNumber)?.int64Value ?? 0
    } catch {
      throw ModelStoreError(.fileSystem, "cannot read \(destination.path): \(error)")
    }
  }

  private func truncate(to size: Int64) throws {
    guard Foundation.truncate(destination.path, off_t(size)) == 0 else {
      throw ModelStoreError(.fileSystem, "cannot truncate \(destination.path): \(String(cString: strerror(errno)))")
    }
  }
}
