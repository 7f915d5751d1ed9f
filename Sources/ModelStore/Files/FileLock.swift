import Foundation

/// An exclusive advisory lock (`flock(2)`) on a file, so two processes never assemble the same
/// model at once.
///
/// The kernel drops the lock when the process dies, so a killed pull never leaves it held.
enum FileLock {
  /// Runs `body` while holding the lock on `url`, creating the file if needed.
  ///
  /// - Parameters:
  ///   - url: The lock file.
  ///   - waiting: Called once if another process holds the lock, before waiting for it.
  ///   - body: The work to do under the lock.
  /// - Throws: `ModelStoreError(.fileSystem)` when the lock file cannot be opened, and whatever
  ///   `body` throws; `CancellationError` if the task is cancelled while waiting.
  static func withExclusiveLock<T>(
    on url: URL, waiting: () -> Void, _ body: () async throws -> T
  ) async throws -> T {
    let descriptor = open(url.path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw ModelStoreError(.fileSystem, "cannot open \(url.path): \(String(cString: strerror(errno)))")
    }
    // Closing the descriptor releases the lock.
    defer { close(descriptor) }
    var announced = false
    // Non-blocking attempts with a sleep between them keep the waiting off the cooperative pool's threads.
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      guard errno == EWOULDBLOCK || errno == EINTR else {
        throw ModelStoreError(.fileSystem, "cannot lock \(url.path): \(String(cString: strerror(errno)))")
      }
      if !announced {
        waiting()
        announced = true
      }
      try await Task.sleep(for: .milliseconds(250))
    }
    return try await body()
  }
}
