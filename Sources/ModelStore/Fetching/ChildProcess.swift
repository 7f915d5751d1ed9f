import Foundation
import Synchronization

/// Runs a helper program (`python3`, `sha256sum`) to completion and collects its output.
///
/// The wait happens on a Dispatch thread and in the termination handler, never by blocking
/// a thread of the cooperative pool; cancelling the calling task terminates the child.
struct ChildProcess {
  /// What a finished child left behind.
  struct Result: Sendable {
    var status: Int32
    var standardOutput: String
    var standardError: String

    /// The last non-empty lines of standard error, short enough to quote in a message.
    var errorSummary: String {
      let lines = standardError.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      return lines.filter { !$0.isEmpty }.suffix(3).joined(separator: " | ")
    }
  }

  /// Runs `arguments[0]` found through `PATH`, with the remaining arguments.
  ///
  /// - Throws: `CancellationError` when the task was cancelled (the child is terminated);
  ///   `ModelStoreError(.fetchFailed)` when the program cannot be started.
  static func run(_ arguments: [String]) async throws -> Result {
    let process = Process()
    // `env` searches PATH the way a shell does, so `python3` from pyenv or a venv is found.
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice

    let exit = ExitSignal()
    process.terminationHandler = { finished in exit.fire(finished.terminationStatus) }
    do {
      try process.run()
    } catch {
      throw ModelStoreError(.fetchFailed, "could not start \(arguments.first ?? "a helper program"): \(error)")
    }
    let handle = ProcessHandle(process: process)
    return try await withTaskCancellationHandler {
      // Both pipes are drained while the child runs; a full pipe would otherwise stall it.
      async let standardOutput = readToEnd(output.fileHandleForReading)
      async let standardError = readToEnd(error.fileHandleForReading)
      let status = await exit.wait()
      let result = Result(status: status, standardOutput: await standardOutput, standardError: await standardError)
      try Task.checkCancellation()
      return result
    } onCancel: {
      handle.terminate()
    }
  }

  private static func readToEnd(_ handle: FileHandle) async -> String {
    await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        let data = handle.readDataToEndOfFile()
        continuation.resume(returning: String(decoding: data, as: UTF8.self))
      }
    }
  }
}

/// A `Process` that may be terminated from the cancellation handler's thread.
///
/// `Process.terminate()` only sends a signal, which is safe from any thread.
private struct ProcessHandle: @unchecked Sendable {
  let process: Process
  func terminate() {
    if process.isRunning { process.terminate() }
  }
}

/// Delivers a child's exit status once, to a waiter that may arrive before or after it.
private final class ExitSignal: Sendable {
  private enum State {
    case running
    case waiting(CheckedContinuation<Int32, Never>)
    case exited(Int32)
  }

  private let state = Mutex(State.running)

  func fire(_ status: Int32) {
    let waiter: CheckedContinuation<Int32, Never>? = state.withLock { state in
      defer { state = .exited(status) }
      if case .waiting(let continuation) = state { return continuation }
      return nil
    }
    waiter?.resume(returning: status)
  }

  func wait() async -> Int32 {
    await withCheckedContinuation { continuation in
      let status: Int32? = state.withLock { state in
        if case .exited(let status) = state { return status }
        state = .waiting(continuation)
        return nil
      }
      if let status { continuation.resume(returning: status) }
    }
  }
}
