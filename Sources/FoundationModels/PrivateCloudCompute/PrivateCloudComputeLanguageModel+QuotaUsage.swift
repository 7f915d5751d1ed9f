import Foundation

extension PrivateCloudComputeLanguageModel {
  /// How much of its Private Cloud Compute allowance the user has used.
  ///
  /// Matches FoundationModels 27 `PrivateCloudComputeLanguageModel.quotaUsage`. Nothing is ever
  /// used on Linux: below the limit, not approaching it, with no reset date and no suggestion.
  public var quotaUsage: QuotaUsage {
    QuotaUsage(status: .belowLimit(.init(isApproachingLimit: false)))
  }

  /// The user's use of Private Cloud Compute against their limit.
  ///
  /// Matches FoundationModels 27 `PrivateCloudComputeLanguageModel.QuotaUsage` (no public
  /// initializer: the framework reports it).
  public struct QuotaUsage: Sendable {
    /// Below the limit, or at it.
    public var status: Status
    /// An offer to raise the limit, when there is one.
    public var limitIncreaseSuggestion: LimitIncreaseSuggestion?
    /// When the use counted against the limit starts again from zero, when known.
    public var resetDate: Date?

    /// Whether the limit has been reached (``status`` is `limitReached`).
    ///
    /// Matches FoundationModels 27 `QuotaUsage.isLimitReached`.
    public var isLimitReached: Bool {
      if case .limitReached = status { return true }
      return false
    }

    /// Below the limit, or at it.
    ///
    /// Matches FoundationModels 27 `PrivateCloudComputeLanguageModel.QuotaUsage.Status`. The
    /// payload types are nested in it, as Apple nests the payloads of its 27 enums (inferred).
    @nonexhaustive
    public enum Status: Sendable {
      case belowLimit(BelowLimit)
      case limitReached(LimitReached)

      /// Use below the limit.
      ///
      /// Matches FoundationModels 27 `QuotaUsage.Status.BelowLimit`.
      public struct BelowLimit: Sendable {
        /// Whether the use is close to the limit.
        public var isApproachingLimit: Bool
      }

      /// Use at the limit: requests fail with ``PrivateCloudComputeLanguageModel/Error/quotaLimitReached(_:)``
      /// until the reset date.
      ///
      /// Matches FoundationModels 27 `QuotaUsage.Status.LimitReached`.
      public struct LimitReached: Sendable {}
    }

    /// An offer to raise the user's limit, which the system shows.
    ///
    /// Matches FoundationModels 27 `PrivateCloudComputeLanguageModel.QuotaUsage.LimitIncreaseSuggestion`.
    /// Only the framework makes one, and on Linux it never does.
    public struct LimitIncreaseSuggestion: Sendable {
      private init() {}

      /// Shows the system's offer to raise the limit.
      ///
      /// Matches FoundationModels 27 `LimitIncreaseSuggestion.show()`. Unreachable on Linux, where no
      /// suggestion exists.
      public func show() {}
    }
  }
}
