import Foundation

/// Writes the body of one `ResumableDownload` transfer into the partial file, whichever client
/// fetches it: checks that the answer continues the file, appends the bytes, tells the file's
/// digest how far the file has got, and reports the running count to the download's task.
///
/// Used from one thread at a time (URLSession's delegate queue, or a plain HTTP transfer's
/// thread); the task hears only the count, at most about ten times a second, and how the
/// transfer ended, so a fast connection is not held up by task switches.
final class PartialFileWriter: @unchecked Sendable {
  // Everything mutable is touched only by the one thread that feeds the transfer.

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
  private let digest: GrowingFileDigest?
  private let continuation: AsyncThrowingStream<Arrival, any Error>.Continuation
  private var start: Int64
  private var written: Int64 = 0
  private var buffer = Data()
  private var writeError: (any Error)?
  private var lastReport = ContinuousClock.now

  /// Bytes gathered before each write: fewer system calls than one per network chunk.
  private static let bufferSize = 1 << 20

  /// Writes into `handle`, already positioned at `start`, announces the bytes to `digest`, and
  /// reports on `continuation`.
  init(
    handle: FileHandle, start: Int64, digest: GrowingFileDigest?,
    continuation: AsyncThrowingStream<Arrival, any Error>.Continuation
  ) {
    self.handle = handle
    self.start = start
    self.digest = digest
    self.continuation = continuation
  }

  /// Whether writing failed, so the transfer should stop.
  var failed: Bool { writeError != nil }

  /// Whether the body of an answer with `status` (and `Content-Range`) belongs in the file;
  /// when not, the transfer is over and `complete` reports why.
  func accept(status: Int, contentRange: String?) -> Bool {
    switch status {
    case 206 where Self.firstByte(ofContentRange: contentRange) == start:
      return true
    case 200:
      // The server sent the whole file, not the range asked for: start the file again.
      do {
        digest?.restart()
        try handle.truncate(atOffset: 0)
        start = 0
        return true
      } catch {
        writeError = error
        return false
      }
    case 206:
      // A range that does not begin where the file ends is of no use; the next transfer asks again.
      writeError = URLError(.badServerResponse)
      return false
    default:
      continuation.finish(throwing: StatusError(status: status))
      return false
    }
  }

  /// Appends `bytes` to the file (gathered into larger writes).
  func append(_ bytes: UnsafeRawBufferPointer) {
    guard writeError == nil else { return }
    if buffer.isEmpty, bytes.count >= Self.bufferSize {
      write(bytes)
    } else {
      buffer.append(contentsOf: bytes)
      if buffer.count >= Self.bufferSize { flush() }
    }
    let now = ContinuousClock.now
    if now - lastReport >= .milliseconds(100) {
      lastReport = now
      continuation.yield(Arrival(bytes: start + written + Int64(buffer.count), start: start))
    }
  }

  /// Writes what is gathered, closes the file, and ends the transfer's stream, with `error` if
  /// the connection failed.
  ///
  /// The file is closed here rather than by the download's task, which may stop listening
  /// (when cancelled) while a write is still under way on the transfer's thread.
  func complete(error: (any Error)?) {
    flush()
    try? handle.close()
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
    guard !buffer.isEmpty else { return }
    buffer.withUnsafeBytes { write($0) }
    buffer.removeAll(keepingCapacity: true)
  }

  private func write(_ bytes: UnsafeRawBufferPointer) {
    guard writeError == nil, let base = bytes.baseAddress else { return }
    var offset = 0
    while offset < bytes.count {
      let count = Foundation.write(handle.fileDescriptor, base + offset, bytes.count - offset)
      if count < 0, errno == EINTR { continue }
      guard count > 0 else {
        writeError = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        return
      }
      offset += count
    }
    written += Int64(bytes.count)
    digest?.fileGrew(to: start + written)
  }

  /// The first byte of a `Content-Range: bytes FIRST-LAST/TOTAL` header.
  private static func firstByte(ofContentRange value: String?) -> Int64? {
    guard let value, let dash = value.firstIndex(of: "-") else { return nil }
    return Int64(value[..<dash].drop { !$0.isNumber })
  }
}
