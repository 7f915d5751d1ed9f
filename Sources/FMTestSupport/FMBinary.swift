import Foundation
import Synchronization

/// The built `fm` program, run as a user would: a separate process, real exit codes.
public enum FMBinary {
  /// What one run of `fm` produced.
  public struct Result: Sendable {
    public var status: Int32
    public var standardOutput: String
    public var standardError: String
  }

  /// Finds the `fm` that `swift test` built alongside the test bundle.
  ///
  /// `swift test` builds every product into the directory that holds the test bundle, and runs
  /// the bundle from there; the path relative to this source file covers runners that start it
  /// from elsewhere.
  public static func url() throws -> URL {
    let testBundleDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let packageRoot = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let candidates = [
      testBundleDirectory.appendingPathComponent("fm"),
      Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("fm"),
      packageRoot.appendingPathComponent(".build/debug/fm"),
    ]
    guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
      throw CocoaError(
        .fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "no fm binary; run: swift build --product fm"])
    }
    return found
  }

  /// Runs `fm` with `arguments`, feeding `input` on standard input (or an empty pipe).
  /// - Parameter environment: added to (and overriding) this process's environment;
  ///   `NO_COLOR` is always set so output can be compared as text.
  public static func run(
    _ arguments: [String], input: String = "", environment: [String: String] = [:]
  ) throws -> Result {
    let process = Process()
    process.executableURL = try url()
    process.arguments = arguments
    var merged = ProcessInfo.processInfo.environment
    merged["NO_COLOR"] = "1"
    merged.merge(environment) { $1 }
    process.environment = merged
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    // Read both pipes while the process runs, so a long answer cannot fill a pipe and block it.
    let errorData = LockedData()
    let errorReader = Thread { errorData.set(stderr.fileHandleForReading.readDataToEndOfFile()) }
    errorReader.start()
    let outputData = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while !errorData.isSet { Thread.sleep(forTimeInterval: 0.01) }
    return Result(
      status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
      standardError: String(decoding: errorData.value, as: UTF8.self))
  }
}

/// Data handed from a reader thread to the waiting one.
private final class LockedData: Sendable {
  private let data = Mutex<Data?>(nil)

  func set(_ value: Data) { data.withLock { $0 = value } }
  var isSet: Bool { data.withLock { $0 != nil } }
  var value: Data { data.withLock { $0 ?? Data() } }
}
