import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A program run on a pseudo-terminal, as a user at a terminal would run it: it is a session
/// leader with the terminal as its controlling terminal, so Ctrl+C (byte 3) raises SIGINT.
///
/// Spawned with `posix_spawn` (no `fork` in a multithreaded test process): the child calls
/// `setsid` and then opens the terminal, which makes it the controlling terminal.
final class PseudoTerminalProcess {
  let pid: pid_t
  private let master: Int32
  /// Everything the program wrote so far.
  private(set) var output = ""
  private var bytes: [UInt8] = []
  private var exitStatus: Int32?

  init(_ executable: URL, arguments: [String], environment: [String: String]) throws {
    var master: Int32 = -1
    var slave: Int32 = -1
    var size = winsize(ws_row: 50, ws_col: 200, ws_xpixel: 0, ws_ypixel: 0)
    var name = [CChar](repeating: 0, count: 256)
    guard openpty(&master, &slave, &name, nil, &size) == 0 else { throw POSIXError(.EIO) }
    self.master = master
    let slavePath = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addclose(&actions, master)
    posix_spawn_file_actions_addclose(&actions, slave)
    // Opened after setsid, the terminal becomes the child's controlling terminal.
    posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
    posix_spawn_file_actions_adddup2(&actions, 0, 1)
    posix_spawn_file_actions_adddup2(&actions, 0, 2)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // glibc's POSIX_SPAWN_SETSID (0x80, glibc 2.26+); Swift does not import the macro.
    posix_spawnattr_setflags(&attributes, 0x80)
    let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
    close(slave)
    guard status == 0 else {
      close(master)
      throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EIO)
    }
    self.pid = pid
    _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
  }

  deinit {
    if exitStatus == nil {
      kill(pid, SIGKILL)
      var status: Int32 = 0
      waitpid(pid, &status, 0)
    }
    close(master)
  }

  /// Types `text` (as bytes on the terminal's input).
  func send(_ text: String) {
    let data = Array(text.utf8)
    _ = data.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count) }
  }

  /// Reads until the output after `offset` contains `text`.
  /// - Returns: the offset just past the match, to wait for what comes after it.
  @discardableResult
  func waitFor(_ text: String, after offset: String.Index? = nil, timeout: Double = 120) throws -> String.Index {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      let start = offset ?? output.startIndex
      if let range = output.range(of: text, range: start..<output.endIndex) { return range.upperBound }
      guard Date() < deadline else {
        Issue.record("timed out waiting for \(text.debugDescription); output so far:\n\(output)")
        throw POSIXError(.ETIMEDOUT)
      }
      readAvailable(waitMilliseconds: 100)
    }
  }

  /// Reads until the program has written at least `count` more characters (or `timeout` passed).
  func waitForMoreOutput(_ count: Int, timeout: Double = 60) {
    let target = output.count + count
    let deadline = Date().addingTimeInterval(timeout)
    while output.count < target, Date() < deadline { readAvailable(waitMilliseconds: 100) }
  }

  /// Waits for the program to exit, reading its output meanwhile.
  /// - Returns: its exit status (128 + signal when killed by one).
  func waitForExit(timeout: Double = 60) throws -> Int32 {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      readAvailable(waitMilliseconds: 50)
      var status: Int32 = 0
      if waitpid(pid, &status, WNOHANG) == pid {
        readAvailable(waitMilliseconds: 0)
        let signal = status & 0x7F
        exitStatus = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
        return exitStatus ?? -1
      }
    }
    Issue.record("the program did not exit; output so far:\n\(output)")
    throw POSIXError(.ETIMEDOUT)
  }

  private func readAvailable(waitMilliseconds: Int32) {
    var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
    guard poll(&descriptor, 1, waitMilliseconds) > 0 else { return }
    var buffer = [UInt8](repeating: 0, count: 8192)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
      guard count > 0 else { break }
      bytes.append(contentsOf: buffer.prefix(count))
    }
    output = String(decoding: bytes, as: UTF8.self)
  }
}
