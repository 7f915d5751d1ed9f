import Foundation

/// Chats saved by name, as Apple's `fm chat` keeps them (`--resume NAME`, `--continue`,
/// `/history`, `/load NAME`, `/save NAME`): `NAME.json` in `$XDG_STATE_HOME/fm/sessions`
/// (`~/.local/state/fm/sessions`).
enum ChatSessions {
  static func directory(environment: [String: String]) -> URL {
    StateDirectory.url(environment: environment).appendingPathComponent("sessions")
  }

  /// The file of the session `name`.
  /// - Throws: `UsageError` for a name that is not a plain file name.
  static func url(named name: String, environment: [String: String]) throws -> URL {
    guard !name.isEmpty, !name.contains("/"), !name.hasPrefix(".") else {
      throw UsageError("a session needs a plain name (letters, digits, - and _), not '\(name)'")
    }
    return directory(environment: environment).appendingPathComponent("\(name).json")
  }

  /// Whether `argument` names a file rather than a session: it has a `/`, ends in `.json`, or
  /// is an existing file.
  static func isPath(_ argument: String) -> Bool {
    argument.contains("/") || argument.hasSuffix(".json") || FileManager.default.fileExists(atPath: argument)
  }

  /// The saved sessions, most recently saved first.
  static func saved(environment: [String: String]) -> [(name: String, saved: Date)] {
    let directory = directory(environment: environment)
    let files =
      (try? FileManager.default.contentsOfDirectory(
        at: directory, includingPropertiesForKeys: [.contentModificationDateKey])) ?? []
    return files.filter { $0.pathExtension == "json" }.map { file in
      let date = (try? file.resourceValues(forKeys: [.contentModificationDateKey]))?.contentModificationDate
      return (file.deletingPathExtension().lastPathComponent, date ?? .distantPast)
    }.sorted { $0.saved > $1.saved }
  }

  /// A name for a session saved without one: `chat-` and the time.
  static func newName(now: Date = Date()) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "yyyyMMdd-HHmmss"
    return "chat-" + formatter.string(from: now)
  }
}
