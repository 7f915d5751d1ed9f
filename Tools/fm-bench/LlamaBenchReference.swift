import Foundation

/// Runs the pinned build's `llama-bench` as the reference of a figure.
struct LlamaBenchReference {
  let executable: String
  let modelPath: String
  let threads: Int

  init(modelPath: String, threads: Int) throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    executable = root.appendingPathComponent(".deps/llama/bin/llama-bench").path
    guard FileManager.default.isExecutableFile(atPath: executable) else {
      throw BenchError("llama-bench not found at \(executable); run scripts/build-llama")
    }
    self.modelPath = modelPath
    self.threads = threads
  }

  /// Tokens per second of one llama-bench test (`-p N -n 0` or `-p 0 -n N`), one repetition.
  /// - Parameter depth: tokens already in the context before the test (`-d`).
  func tokensPerSecond(prompt: Int, generate: Int, depth: Int = 0) throws -> Double {
    let output = try run([
      "-m", modelPath, "-t", "\(threads)", "-p", "\(prompt)", "-n", "\(generate)", "-d", "\(depth)", "-r", "1",
      "-o", "jsonl",
    ])
    for line in output.split(separator: "\n") {
      guard let data = line.data(using: .utf8),
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        let rate = object["avg_ts"] as? Double
      else { continue }
      return rate
    }
    throw BenchError("llama-bench printed no result: \(output)")
  }

  /// Wall seconds of a whole llama-bench process that loads the model and produces one token.
  func loadToFirstTokenSeconds() throws -> Double {
    let start = DispatchTime.now()
    _ = try run(["-m", modelPath, "-t", "\(threads)", "-p", "8", "-n", "1", "-r", "1", "--no-warmup", "-o", "jsonl"])
    return elapsed(since: start)
  }

  private func run(_ arguments: [String]) throws -> String {
    try runProcess(executable, arguments).output
  }
}

/// Runs a program to completion and returns its standard output and standard error.
/// - Throws: `BenchError` when it exits with a non-zero status.
func runProcess(_ executable: String, _ arguments: [String]) throws -> (output: String, log: String) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  let output = Pipe()
  // Standard error goes to a file: reading two pipes in turn could block on a full one.
  let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("fm-bench-\(UUID().uuidString).log")
  _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
  defer { try? FileManager.default.removeItem(at: errorFile) }
  let errorHandle = try FileHandle(forWritingTo: errorFile)
  process.standardOutput = output
  process.standardError = errorHandle
  process.standardInput = FileHandle.nullDevice
  try process.run()
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  try errorHandle.close()
  guard process.terminationStatus == 0 else {
    throw BenchError("\(executable) exited with \(process.terminationStatus)")
  }
  let log = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
  return (String(decoding: data, as: UTF8.self), log)
}

struct BenchError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
