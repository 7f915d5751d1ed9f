import Foundation
import Synchronization

/// The sha256 of a file that is being appended to, computed as it grows, so a download and
/// its hash check are not two passes over the file.
///
/// The writer says how far the file has got; a serial queue of its own reads the new bytes
/// back (from the page cache) and hashes them, so hashing never holds up the writer and needs
/// no memory beyond one read buffer however far it falls behind. What the file held before the
/// first `fileGrew(to:)` (a resumed download's partial file) is hashed the same way.
final class GrowingFileDigest: @unchecked Sendable {
  // `hash`, `hashed`, `failure` and `buffer` are touched only on `queue`; the serial queue
  // runs the writer's requests in order, so a `restart()` discards whatever bytes were hashed
  // before it, even bytes read after the truncation it announces.
  private let descriptor: Int32
  private let path: String
  private let queue = DispatchQueue(label: "GrowingFileDigest", qos: .utility)
  private let stopped = Atomic<Bool>(false)
  private var hash = SHA256()
  private var hashed: Int64 = 0
  private var failure: String?
  private var buffer: UnsafeMutableRawBufferPointer

  /// Bytes read and hashed at a time.
  private static let readSize = 4 << 20

  /// Opens `url` for reading; nothing is hashed until `fileGrew(to:)`.
  ///
  /// - Throws: `ModelStoreError(.fileSystem)` when the file cannot be opened.
  init(of url: URL) throws {
    descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw ModelStoreError(.fileSystem, "cannot read \(url.path): \(String(cString: strerror(errno)))")
    }
    path = url.path
    buffer = .allocate(byteCount: Self.readSize, alignment: 4096)
  }

  deinit {
    buffer.deallocate()
    close(descriptor)
  }

  /// The file's first `byteCount` bytes are written; they are hashed in the background.
  func fileGrew(to byteCount: Int64) {
    queue.async { self.hash(upTo: byteCount) }
  }

  /// The file is about to be truncated to nothing and written again: what was hashed is dropped.
  func restart() {
    queue.async {
      self.hash = SHA256()
      self.hashed = 0
      self.failure = nil
    }
  }

  /// Stops hashing; a pending `finish()` still returns. Call it when the download is abandoned.
  func stop() {
    stopped.store(true, ordering: .relaxed)
  }

  /// The digest of the bytes announced so far, once they are all hashed: 64 lowercase hex digits.
  ///
  /// - Throws: `ModelStoreError(.fileSystem)` when the file could not be read back;
  ///   `CancellationError` when `stop()` was called.
  func finish() async throws -> String {
    let result: Result<String, any Error> = await withCheckedContinuation { continuation in
      queue.async {
        if self.stopped.load(ordering: .relaxed) {
          continuation.resume(returning: .failure(CancellationError()))
        } else if let failure = self.failure {
          continuation.resume(returning: .failure(ModelStoreError(.fileSystem, failure)))
        } else {
          continuation.resume(returning: .success(self.hash.hexDigest()))
        }
      }
    }
    return try result.get()
  }

  private func hash(upTo byteCount: Int64) {
    while hashed < byteCount, failure == nil, !stopped.load(ordering: .relaxed) {
      let wanted = Int(min(Int64(Self.readSize), byteCount - hashed))
      let count = pread(descriptor, buffer.baseAddress, wanted, off_t(hashed))
      if count < 0, errno == EINTR { continue }
      guard count > 0 else {
        failure =
          "cannot read back \(path) at byte \(hashed) to hash it: "
          + (count == 0 ? "the file is shorter than was written" : String(cString: strerror(errno)))
        return
      }
      hash.update(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
      hashed += Int64(count)
    }
  }
}
