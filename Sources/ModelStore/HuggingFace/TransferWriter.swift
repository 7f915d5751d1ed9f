import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The delegate of one `ResumableDownload` transfer: writes the body into the file as it
/// arrives and reports how far the file has got.
///
/// The bytes are written here, on the session's delegate queue, rather than handed to the
/// calling task chunk by chunk, so a fast connection is not held up by task switches; the task
/// hears only the running count, at most about ten times a second, and how the transfer ended.
final class TransferWriter: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  // Everything mutable is touched only on the session's serial delegate queue.

  /// How far the file has got.
  struct Arrival: Sendable {
    /// Bytes in the file.
    var bytes: Int64
    /// Where this transfer's bytes began: the requested offset, or 0 when the server sent the
    /// whole file instead of the range.
    var start: Int64
  }

  /// An answer whose status means the transfer cannot succeed by asking again.
  struct StatusError: Error {
    var status: Int
  }

  private let handle: FileHandle
  private let continuation: AsyncThrowingStream<Arrival, any Error>.Continuation
  private var start: Int64
  private var written: Int64 = 0
  private var buffer = Data()
  private var writeError: (any Error)?
  private var lastReport = ContinuousClock.now

  /// Bytes gathered before each write: fewer system calls than one per network chunk.
  private static let bufferSize = 1 << 20

  /// Writes into `handle`, already positioned at `start`, and reports on `continuation`.
  init(handle: FileHandle, start: Int64, continuation: AsyncThrowingStream<Arrival, any Error>.Continuation) {
    self.handle = handle
    self.start = start
    self.continuation = continuation
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
  ) {
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    switch status {
    case 206 where contentRangeStart(response) == start:
      completionHandler(.allow)
    case 200:
      // The server sent the whole file, not the range asked for: start the file again.
      do {
        try handle.truncate(atOffset: 0)
        start = 0
        completionHandler(.allow)
      } catch {
        writeError = error
        completionHandler(.cancel)
      }
    case 206:
      // A range that does not begin where the file ends is of no use; the next transfer asks again.
      writeError = URLError(.badServerResponse)
      completionHandler(.cancel)
    default:
      continuation.finish(throwing: StatusError(status: status))
      completionHandler(.cancel)
    }
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    guard writeError == nil else { return }
    buffer.append(data)
    if buffer.count >= Self.bufferSize { flush() }
    let now = ContinuousClock.now
    if now - lastReport >= .milliseconds(100) {
      lastReport = now
      continuation.yield(Arrival(bytes: start + written + Int64(buffer.count), start: start))
    }
    if writeError != nil { dataTask.cancel() }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
  ) {
    var redirected = request
    let original = task.originalRequest
    // The range goes along; the token only to the host it was meant for.
    redirected.setValue(original?.value(forHTTPHeaderField: "Range"), forHTTPHeaderField: "Range")
    redirected.setValue(original?.value(forHTTPHeaderField: "Accept-Encoding"), forHTTPHeaderField: "Accept-Encoding")
    let sameHost = request.url?.host == original?.url?.host && request.url?.port == original?.url?.port
    redirected.setValue(
      sameHost ? original?.value(forHTTPHeaderField: "Authorization") : nil, forHTTPHeaderField: "Authorization")
    completionHandler(redirected)
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    flush()
    continuation.yield(Arrival(bytes: start + written, start: start))
    if let writeError {
      continuation.finish(
        throwing: writeError is URLError
          ? writeError : ModelStoreError(.fileSystem, "cannot write the download: \(writeError)"))
    } else if let error {
      continuation.finish(throwing: error)
    } else {
      continuation.finish()
    }
  }

  private func flush() {
    guard !buffer.isEmpty, writeError == nil else { return }
    do {
      try handle.write(contentsOf: buffer)
      written += Int64(buffer.count)
    } catch {
      writeError = error
    }
    buffer.removeAll(keepingCapacity: true)
  }

  /// The first byte of a `Content-Range: bytes FIRST-LAST/TOTAL` header.
  private func contentRangeStart(_ response: URLResponse) -> Int64? {
    guard let value = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Range"),
      let dash = value.firstIndex(of: "-")
    else { return nil }
    return Int64(value[..<dash].drop { !$0.isNumber })
  }
}
