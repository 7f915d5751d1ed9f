import Foundation

extension SystemLanguageModel {
  /// An error of the system (local) model.
  ///
  /// Matches FoundationModels 27 `SystemLanguageModel.Error`. On Linux: the model file is
  /// missing or cannot be loaded.
  @nonexhaustive
  public enum Error: Swift.Error, LocalizedError, CustomDebugStringConvertible {
    case assetsUnavailable(AssetsUnavailable)

    /// Matches FoundationModels 27 `SystemLanguageModel.Error.AssetsUnavailable`.
    public struct AssetsUnavailable: Sendable {
      public var debugDescription: String

      public init(debugDescription: String) {
        self.debugDescription = debugDescription
      }
    }

    public var debugDescription: String {
      switch self {
      case .assetsUnavailable(let error): error.debugDescription
      }
    }

    public var errorDescription: String? {
      switch self {
      case .assetsUnavailable: "The model's files are not available: \(debugDescription)"
      }
    }
  }
}
