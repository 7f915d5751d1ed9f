import Foundation
import Glibc

/// A real `fm serve` (the debug `fm` binary, see `FMBinary`) on a free port: started, ready
/// once it prints the URL it listens on, and ended with SIGTERM (graceful shutdown) by
/// `terminate()`, which reports the exit status.
public final class ServeProcess: @unchecked Sendable {
  // `process` is only terminated once, after start.
  public let baseURL: URL
  private let process: Process

  /// Starts `fm serve` with `arguments` (model and options; `--port 0` is added, or with
  /// `socket`, `--socket socket`) and waits until it listens.
  /// - Throws: when the binary is missing, or it exits or prints no URL within `readyWithin`.
  public static func start(_ arguments: [String], socket: String? = nil, readyWithin: TimeInterval = 120) throws
    -> ServeProcess
  {
    let process = Process()
    process.executableURL = try FMBinary.url()
    process.arguments = ["serve"] + arguments + (socket.map { ["--socket", $0] } ?? ["--port", "0"])
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let deadline = Date().addingTimeInterval(readyWithin)
    var text = ""
    while !text.contains("\n"), Date() < deadline, process.isRunning {
      let data = output.fileHandleForReading.availableData
      if data.isEmpty { Thread.sleep(forTimeInterval: 0.05) }
      text += String(decoding: data, as: UTF8.self)
    }
    // On a socket, the URL's host is any name: the connection goes to the socket.
    let announced =
      socket == nil
      ? text.range(of: "http://").map { String(text[$0.lowerBound...].prefix { !$0.isWhitespace }) }
      : text.contains("unix:") ? "http://localhost" : nil
    guard let announced, let url = URL(string: announced) else {
      if process.isRunning { process.terminate() }
      throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "fm serve printed no URL: \(text)"])
    }
    return ServeProcess(baseURL: url, process: process)
  }

  private init(baseURL: URL, process: Process) {
    self.baseURL = baseURL
    self.process = process
  }

  deinit { if process.isRunning { process.terminate() } }

  /// The port it listens on.
  public var port: Int { baseURL.port ?? 0 }

  /// Sends SIGTERM and waits for the exit.
  /// - Returns: the exit status (0 after a graceful shutdown).
  public func terminate() -> Int32 {
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
    return process.terminationStatus
  }
}
