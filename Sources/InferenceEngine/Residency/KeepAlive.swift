import Foundation

/// How long a loaded model stays in memory after the last session on it ends.
///
/// Loading (mapping, repacking the weights, creating a context) takes far longer than a turn
/// on a loaded model, and apps open a new session per request. So a model
/// outlives its sessions by this period, with its idle context. Five minutes by default, as in
/// Ollama; `FM_KEEP_ALIVE` changes the default for a process.
public enum KeepAlive: Sendable, Hashable {
  /// Never unloaded while the process runs (until released explicitly).
  case forever
  /// Unloaded this long after the last session ends; `.zero` unloads at once.
  case duration(Duration)

  /// Unloaded as soon as the last session ends.
  public static let unloadAtOnce = KeepAlive.duration(.zero)
  /// Five minutes.
  public static let standard = KeepAlive.duration(.seconds(300))

  /// `FM_KEEP_ALIVE` when set, else `standard`.
  public static let processDefault: KeepAlive = {
    guard let text = ProcessInfo.processInfo.environment["FM_KEEP_ALIVE"], !text.isEmpty else { return .standard }
    guard let parsed = KeepAlive(text) else {
      // A setting that is not understood is said, never silently replaced.
      FileHandle.standardError.write(
        Data("warning: FM_KEEP_ALIVE=\(text) is not a duration (300, 30s, 5m, 1h), 0 or forever; using 5m\n".utf8))
      return .standard
    }
    return parsed
  }()

  /// Parses `FM_KEEP_ALIVE`'s forms, as Ollama's `OLLAMA_KEEP_ALIVE`: seconds (`300`), a number
  /// with a unit (`30s`, `5m`, `1h`), `0` (unload at once), and `forever` or any negative number.
  public init?(_ text: String) {
    let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
    if trimmed == "forever" || trimmed == "inf" {
      self = .forever
      return
    }
    let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
    var number = Substring(trimmed)
    var scale = 1.0
    if let unit = units.first(where: { trimmed.hasSuffix($0.suffix) }) {
      number = number.dropLast(unit.suffix.count)
      scale = unit.seconds
    }
    guard let value = Double(number), value.isFinite else { return nil }
    self = value < 0 ? .forever : .duration(.milliseconds(Int64((value * scale * 1000).rounded())))
  }
}
