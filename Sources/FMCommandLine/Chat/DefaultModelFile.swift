import Foundation

/// The default model `fm chat --set-default-model` saves, as Apple's `fm` keeps one: every `fm`
/// command (and the library in its process) uses it where neither `--model` nor `FM_MODEL`
/// names one. Kept in `$XDG_STATE_HOME/fm/default-model`.
enum DefaultModelFile {
  static func url(environment: [String: String]) -> URL {
    StateDirectory.url(environment: environment).appendingPathComponent("default-model")
  }

  /// The saved name, if one is saved.
  static func read(environment: [String: String]) -> String? {
    guard let data = FileManager.default.contents(atPath: url(environment: environment).path) else { return nil }
    let name = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    return name.isEmpty ? nil : name
  }

  static func write(_ name: String, environment: [String: String]) throws {
    let file = url(environment: environment)
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data((name + "\n").utf8).write(to: file, options: .atomic)
  }

  /// `environment` with `FM_MODEL` set to the saved default where it is not set; the process's
  /// own environment too, so that `SystemLanguageModel.default` sees it.
  static func applying(to environment: [String: String]) -> [String: String] {
    guard (environment["FM_MODEL"] ?? "").isEmpty, let saved = read(environment: environment) else {
      return environment
    }
    setenv("FM_MODEL", saved, 1)
    var changed = environment
    changed["FM_MODEL"] = saved
    return changed
  }
}
