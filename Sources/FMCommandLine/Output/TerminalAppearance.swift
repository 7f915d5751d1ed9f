import Foundation
import Synchronization

/// Whether `fm`'s colours are chosen for a dark or a light terminal (`/appearance` in `fm chat`,
/// as Apple's `fm` has it); `auto` reads the terminal's colours from `COLORFGBG` where the
/// terminal sets it, and takes dark otherwise. Kept in `$XDG_STATE_HOME/fm/appearance`.
enum TerminalAppearance: String, Sendable, CaseIterable {
  case dark, light, auto

  private static let chosen = Mutex(TerminalAppearance.auto)
  private static let background = Mutex(TerminalAppearance.dark)

  /// The appearance the styles use now: `auto` resolved.
  static var current: TerminalAppearance { background.withLock { $0 } }

  /// Chooses `appearance`, resolved against `environment`.
  static func choose(_ appearance: TerminalAppearance, environment: [String: String]) {
    chosen.withLock { $0 = appearance }
    background.withLock { $0 = appearance == .auto ? detected(environment: environment) : appearance }
  }

  /// The appearance `COLORFGBG` (`foreground;background`) implies: a light background is colour
  /// 7 or 15.
  static func detected(environment: [String: String]) -> TerminalAppearance {
    guard let last = environment["COLORFGBG"]?.split(separator: ";").last, let colour = Int(last) else { return .dark }
    return colour == 7 || colour == 15 ? .light : .dark
  }

  static func url(environment: [String: String]) -> URL {
    StateDirectory.url(environment: environment).appendingPathComponent("appearance")
  }

  /// The saved choice (auto when none is saved), applied.
  static func load(environment: [String: String]) {
    let saved = FileManager.default.contents(atPath: url(environment: environment).path).flatMap {
      TerminalAppearance(rawValue: String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
    choose(saved ?? .auto, environment: environment)
  }

  /// Chooses `appearance` and saves the choice for later runs.
  static func save(_ appearance: TerminalAppearance, environment: [String: String]) throws {
    choose(appearance, environment: environment)
    let file = url(environment: environment)
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data((appearance.rawValue + "\n").utf8).write(to: file, options: .atomic)
  }
}
