import Foundation

/// The line editor's history on disk: one entry per line, newest last.
///
/// Entries may hold newlines (pasted or `"""` blocks), so `\` and newline are escaped as `\\`
/// and `\n`. Each submitted line is appended at once, so history survives a crash; the file is
/// cut back to `limit` entries when it is loaded.
struct LineHistoryFile: Sendable {
  /// Where the file is.
  let url: URL
  /// How many entries are kept.
  var limit = 1000

  /// `$XDG_STATE_HOME/fm/history`, else `~/.local/state/fm/history`.
  static func defaultURL(environment: [String: String]) -> URL {
    StateDirectory.url(environment: environment).appendingPathComponent("history")
  }

  /// The entries, oldest first; none when the file does not exist or cannot be read.
  func load() -> [String] {
    guard let data = FileManager.default.contents(atPath: url.path) else { return [] }
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
    let entries = lines.suffix(limit).map { Self.unescape(String($0)) }
    if lines.count > limit * 2 {
      // Rewriting only when the file has grown well past the limit keeps appends cheap.
      let text = entries.map { Self.escape($0) + "\n" }.joined()
      try? Data(text.utf8).write(to: url, options: .atomic)
    }
    return entries
  }

  /// Appends one entry; failures are ignored, since history is a convenience.
  func append(_ entry: String) {
    let directory = url.deletingLastPathComponent()
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    if !FileManager.default.fileExists(atPath: url.path) {
      // History may hold secrets typed into prompts: only the user may read it.
      _ = FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600])
    }
    guard let handle = try? FileHandle(forWritingTo: url) else { return }
    defer { try? handle.close() }
    _ = try? handle.seekToEnd()
    try? handle.write(contentsOf: Data((Self.escape(entry) + "\n").utf8))
  }

  static func escape(_ entry: String) -> String {
    entry.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
  }

  static func unescape(_ line: String) -> String {
    var result = ""
    var escaping = false
    for character in line {
      if escaping {
        result.append(character == "n" ? "\n" : character)
        escaping = false
      } else if character == "\\" {
        escaping = true
      } else {
        result.append(character)
      }
    }
    return result
  }
}
