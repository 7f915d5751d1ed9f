import Foundation

/// A fresh directory under the system's temporary directory, for one test.
public struct TemporaryDirectory: Sendable {
  /// The directory; it exists until `remove()`.
  public let url: URL

  /// Creates an empty directory with a unique name.
  public init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("fm-test-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  /// Names of the entries in the directory, sorted (hidden ones included).
  public func entries() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
  }

  /// Deletes the directory and everything in it.
  public func remove() {
    try? FileManager.default.removeItem(at: url)
  }
}
