import CLlama
import Foundation
import ModelStore

/// Measurements of this machine kept for later processes, in a file of the project's cache
/// (`ModelStore.cacheRoot(environment:)`), one line each: a key, a tab, the value.
///
/// A key ends with what the measurement holds for besides what the caller names: the CPU's
/// model and the features llama.cpp was built with (`llama_print_system_info`), so another
/// machine or build measures again. Lines are appended whole by the system; a line that
/// cannot be read is skipped, and a file that cannot be written keeps nothing (the next process
/// measures again).
public struct MeasurementFile: Sendable {
  public let url: URL

  public init(url: URL) {
    self.url = url
  }

  /// The file named `name` in the project's cache.
  public static func named(_ name: String) -> MeasurementFile {
    MeasurementFile(
      url: ModelStore.cacheRoot(environment: ProcessInfo.processInfo.environment).appendingPathComponent(name))
  }

  /// The key of a measurement of `what` on this machine and llama.cpp build.
  static func key(_ what: String) -> String {
    let cpu =
      (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?.split(separator: "\n")
      .first { $0.hasPrefix("model name") }.map(String.init) ?? "unknown CPU"
    let build = llama_print_system_info().map { String(cString: $0) } ?? ""
    return String("\(what) | \(cpu) | \(build)".map { $0 == "\t" || $0 == "\n" ? " " : $0 })
  }

  /// The values the file holds, by key (the last line of a key wins); none where it cannot be read.
  func values() -> [String: String] {
    guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [:] }
    var values: [String: String] = [:]
    for line in text.split(separator: "\n") {
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      if fields.count == 2 { values[String(fields[0])] = String(fields[1]) }
    }
    return values
  }

  /// Appends `value` for `key` (one line, written by one `write`).
  func append(_ value: String, for key: String) {
    try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    let descriptor = open(url.path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    let line = Array("\(key)\t\(value)\n".utf8)
    _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
  }
}
