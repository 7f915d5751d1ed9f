import FMTestSupport
import Foundation
import Synchronization
import Testing

/// Apple's `fm` examples of macOS 27, each run exactly as written by a shell (`$(…)` included),
/// with `fm` on `PATH` and the system model being the test model (`FM_MODEL`), in a folder of
/// its own: the exit code and the shape of the output, whatever the model writes. A free answer
/// has no budget in these lines, so it either ends or, where the model talks on, fills the
/// context window and fails saying so; both are Apple's behaviour.
@Suite struct AppleExamplesTests {
  /// What an example's standard output must be.
  enum Shape: Sendable {
    case text
    case integer
    case tags
    case jsonObject
    case lines([String])
    case contains(String)
  }

  static let examples: [(line: String, shape: Shape)] = [
    ("fm respond 'What is Swift?'", .text),
    ("fm respond --greedy --no-stream 'Say hello in three words.'", .text),
    ("fm respond --use-case content-tagging 'Apple shipped a CLI for on-device AI.'", .tags),
    ("fm respond --schema movie.json 'Give me a classic sci-fi film.'", .jsonObject),
    ("fm token-count 'The quick brown fox jumps over the lazy dog.'", .integer),
    ("fm token-count -i 'You are concise' --text 'Describe' 'Follow up'", .integer),
    ("fm schema object --name Movie --string title --integer year --boolean rewatchable", .jsonObject),
    (
      #"fm schema object --name Restaurant --string title --object address --schema "$(fm schema object --name Address --string zip)""#,
      .jsonObject
    ),
    ("fm available", .lines(["System model available", "Error: PCC inference is not available in this context."])),
    (
      // Served until /health answers over the socket, then stopped as a user stops it.
      """
      fm serve --socket ./fm.sock > serve.log & server=$!
      for i in $(seq 600); do [ -S ./fm.sock ] && break; sleep 0.1; done
      python3 -c 'import socket; s = socket.socket(socket.AF_UNIX); s.connect("./fm.sock"); s.sendall(b"GET /health HTTP/1.1\\r\\nHost: fm\\r\\nConnection: close\\r\\n\\r\\n"); print(s.recv(65536).decode())'
      kill -TERM $server; wait $server
      """, .contains(#""id":"system","available":true"#)
    ),
  ]

  @Test(arguments: examples.indices)
  func applesExampleRunsUnchanged(index: Int) throws {
    let (line, shape) = Self.examples[index]
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try Data(
      #"{"type": "object", "properties": {"title": {"type": "string", "maxLength": 60}, "year": {"type": "integer"}}, "required": ["title", "year"]}"#
        .utf8
    ).write(to: directory.url.appendingPathComponent("movie.json"))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", line]
    process.currentDirectoryURL = directory.url
    var environment = ProcessInfo.processInfo.environment
    environment["PATH"] =
      try FMBinary.url().deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    environment["FM_MODEL"] = TestModels.smolLM2Path
    environment["NO_COLOR"] = "1"
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    let errors = Pipe()
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let errorText = Mutex("")
    let errorReader = Thread {
      errorText.withLock { $0 = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }
    }
    errorReader.start()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    while !errorReader.isFinished { Thread.sleep(forTimeInterval: 0.01) }
    if case .text = shape, process.terminationStatus == 1 {
      #expect(errorText.withLock { $0 }.contains("context window"), "\(line): \(errorText.withLock { $0 })")
      return
    }
    #expect(process.terminationStatus == 0, "\(line)\n\(text)")
    switch shape {
    case .text:
      #expect(text.hasSuffix("\n"), "\(line)")
    case .integer:
      #expect(text.wholeMatch(of: /\d+\n/) != nil, "\(line): \(text.debugDescription)")
    case .tags:
      let tag = "[a-z0-9]+( [a-z0-9]+){0,3}"
      #expect(text.wholeMatch(of: try Regex("\(tag)(, \(tag)){0,9}\n")) != nil, "\(line): \(text.debugDescription)")
    case .jsonObject:
      #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8))) is [String: Any], "\(line): \(text)")
    case .lines(let lines):
      #expect(text == lines.map { $0 + "\n" }.joined(), "\(line)")
    case .contains(let part):
      #expect(text.contains(part), "\(line): \(text)")
    }
  }
}
