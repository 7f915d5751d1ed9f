import Foundation
import Testing

/// The `fm` program that `swift test` built, for tests that run it as a user would.
enum FMBinary {
  /// Finds the `fm` that `swift test` built alongside the test bundle.
  ///
  /// `swift test` builds every product into the directory that holds the test bundle, and runs
  /// the bundle from there; the path relative to this source file covers runners that start it
  /// from elsewhere.
  static func url() throws -> URL {
    let testBundleDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let packageRoot = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let candidates = [
      testBundleDirectory.appendingPathComponent("fm"),
      Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("fm"),
      packageRoot.appendingPathComponent(".build/debug/fm"),
    ]
    let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    return try #require(found, "no fm binary in \(candidates.map(\.path)); run: swift build --product fm")
  }
}
