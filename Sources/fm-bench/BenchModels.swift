import Foundation

/// Finds a model file from a catalogue name or a path.
enum BenchModels {
  static func path(for argument: String) -> String {
    if argument.hasSuffix(".gguf") || argument.contains("/") { return argument }
    let environment = ProcessInfo.processInfo.environment
    let cache = environment["XDG_CACHE_HOME"] ?? "\(NSHomeDirectory())/.cache"
    let directory = environment["FM_MODELS_DIR"] ?? "\(cache)/foundationmodels-linux/models"
    return "\(directory)/\(argument).gguf"
  }
}
