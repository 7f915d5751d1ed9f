import InferenceEngine

extension SystemLanguageModel {
  /// How long a loaded model stays in memory after the last session on it ends.
  ///
  /// Our addition: on Apple's devices the system manages the model's memory; on Linux the process
  /// does.
  ///
  /// Loading a model is slow (mapping, repacking the weights, creating a context), so a
  /// model outlives its sessions by this period together with its idle llama.cpp context, and a
  /// new session in that time starts at once — the pattern Apple recommends, a new session per
  /// unrelated request, stays fast. The default is five minutes (as Ollama's), or
  /// `FM_KEEP_ALIVE` for the process: seconds (`300`), `30s`, `5m`, `1h`, `0` (unload at once),
  /// or `forever`. When sessions on one model set different periods, the session that ends last
  /// decides.
  public enum KeepAlive: Sendable, Hashable {
    /// Kept until the process ends or `releaseUnusedModels()` is called.
    case forever
    /// Unloaded this long after the last session ends.
    case duration(Duration)

    /// Unloaded as soon as the last session on it ends.
    public static let unloadAtOnce = KeepAlive.duration(.zero)
    /// `FM_KEEP_ALIVE` when set, else five minutes.
    public static var `default`: KeepAlive {
      switch InferenceEngine.KeepAlive.processDefault {
      case .forever: .forever
      case .duration(let duration): .duration(duration)
      }
    }

    /// `FM_KEEP_ALIVE`'s forms: seconds (`300`), a number with a unit (`30s`, `5m`, `1h`), `0`
    /// (unload at once), and `forever`; nil for anything else.
    public init?(parsing text: String) {
      switch InferenceEngine.KeepAlive(text) {
      case .forever?: self = .forever
      case .duration(let duration)?: self = .duration(duration)
      case nil: return nil
      }
    }

    var engineValue: InferenceEngine.KeepAlive {
      switch self {
      case .forever: .forever
      case .duration(let duration): .duration(duration)
      }
    }
  }

  /// Unloads every model that no session uses now, with its idle context, instead of waiting
  /// for the keep-alive period: for apps that must give memory back.
  ///
  /// Our addition.
  ///
  /// Models that live sessions use stay loaded; the next request on an unloaded model loads it
  /// again.
  public static func releaseUnusedModels() {
    ModelLoader.releaseIdleModels()
  }
}
