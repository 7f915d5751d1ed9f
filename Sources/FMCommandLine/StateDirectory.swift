import Foundation

/// Where `fm` keeps state between runs (history, chat sessions): the XDG state directory.
enum StateDirectory {
  /// `$XDG_STATE_HOME/fm`, else `$HOME/.local/state/fm`.
  static func url(environment: [String: String]) -> URL {
    if let state = environment["XDG_STATE_HOME"], !state.isEmpty {
      return URL(fileURLWithPath: state).appendingPathComponent("fm")
    }
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    return URL(fileURLWithPath: home).appendingPathComponent(".local/state/fm")
  }
}
