import Foundation

extension PrivateCloudComputeLanguageModel {
  /// An error of the Private Cloud Compute model.
  ///
  /// Matches FoundationModels 27 `PrivateCloudComputeLanguageModel.Error`. On Linux only
  /// ``serviceUnavailable(_:)`` occurs: the service serves Apple devices only.
  @nonexhaustive
  public enum Error: Swift.Error, LocalizedError, CustomDebugStringConvertible {
    /// The service could not be reached over the network.
    case networkFailure(NetworkFailure)
    /// The user has reached their limit (see ``PrivateCloudComputeLanguageModel/quotaUsage``).
    case quotaLimitReached(QuotaLimitReached)
    /// The service cannot serve the request (on Linux: ever).
    case serviceUnavailable(ServiceUnavailable)

    /// Matches FoundationModels 27 `PrivateCloudComputeLanguageModel.Error.NetworkFailure`.
    public struct NetworkFailure: Sendable {
      public var debugDescription: String

      public init(debugDescription: String) {
        self.debugDescription = debugDescription
      }
    }

    /// Matches FoundationModels 27 `PrivateCloudComputeLanguageModel.Error.QuotaLimitReached`.
    public struct QuotaLimitReached: Sendable {
      /// An offer to raise the limit, when there is one.
      public var limitIncreaseSuggestion: QuotaUsage.LimitIncreaseSuggestion?
      /// When requests are accepted again, when known.
      public var resetDate: Date?
      public var debugDescription: String

      public init(
        limitIncreaseSuggestion: QuotaUsage.LimitIncreaseSuggestion? = nil, resetDate: Date? = nil,
        debugDescription: String
      ) {
        self.limitIncreaseSuggestion = limitIncreaseSuggestion
        self.resetDate = resetDate
        self.debugDescription = debugDescription
      }
    }

    /// Matches FoundationModels 27 `PrivateCloudComputeLanguageModel.Error.ServiceUnavailable`.
    public struct ServiceUnavailable: Sendable {
      public var debugDescription: String

      public init(debugDescription: String) {
        self.debugDescription = debugDescription
      }

      /// Why a Linux machine cannot use the model.
      static let appleOnly = ServiceUnavailable(
        debugDescription:
          "Private Cloud Compute is Apple-only: it serves Apple devices with Apple Intelligence, from Apple's "
          + "servers, and cannot be reached from Linux. Use another model, such as SystemLanguageModel.default.")
    }

    public var debugDescription: String {
      switch self {
      case .networkFailure(let payload): payload.debugDescription
      case .quotaLimitReached(let payload): payload.debugDescription
      case .serviceUnavailable(let payload): payload.debugDescription
      }
    }

    public var errorDescription: String? {
      switch self {
      case .networkFailure: "Private Cloud Compute could not be reached: \(debugDescription)"
      case .quotaLimitReached: "The Private Cloud Compute usage limit has been reached: \(debugDescription)"
      case .serviceUnavailable: "Private Cloud Compute is unavailable: \(debugDescription)"
      }
    }
  }
}
