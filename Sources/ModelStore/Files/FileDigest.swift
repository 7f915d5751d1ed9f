import Foundation

/// Computes file checksums with the system's `sha256sum`.
///
/// Foundation on Linux has no SHA-256 and the project takes no outside packages; coreutils'
/// `sha256sum` is on every Linux machine and fast enough to hash a model once, after download.
enum FileDigest {
  /// Returns the lowercase hex sha256 of the file at `url`.
  ///
  /// - Throws: `ModelStoreError(.fileSystem)` when the file cannot be read.
  static func sha256(of url: URL) async throws -> String {
    let result = try await ChildProcess.run(["sha256sum", "--", url.path])
    guard result.status == 0, let digest = result.standardOutput.split(separator: " ").first else {
      throw ModelStoreError(.fileSystem, "could not compute the sha256 of \(url.path): \(result.errorSummary)")
    }
    return String(digest).lowercased()
  }
}
