import Foundation
import Observation

/// Apple's server model, run on Private Cloud Compute.
///
/// Matches FoundationModels 27 `PrivateCloudComputeLanguageModel`, with its whole surface, so
/// code that checks for it or offers it as a choice compiles unchanged. Private Cloud Compute
/// serves Apple devices signed in to Apple Intelligence, from Apple's servers; a Linux machine
/// can never reach it. So here the model is always unavailable (`.deviceNotEligible`), its
/// context size and every request fail with ``Error/serviceUnavailable(_:)``, and it lists no
/// capabilities. Check ``isAvailable`` and fall back to another model, as on an Apple device
/// that is not eligible.
public final class PrivateCloudComputeLanguageModel: Sendable {
  /// Creates the model.
  ///
  /// Matches FoundationModels 27 `PrivateCloudComputeLanguageModel.init()` (a `convenience`
  /// init in Apple's interface, which makes no difference for a final class).
  public init() {}

  /// Whether the model can be used; on Linux never: `.unavailable(.deviceNotEligible)`.
  ///
  /// Matches FoundationModels 27 `PrivateCloudComputeLanguageModel.availability`.
  public var availability: Availability {
    .unavailable(.deviceNotEligible)
  }

  /// Matches FoundationModels 27 `PrivateCloudComputeLanguageModel.isAvailable`: false on Linux.
  public var isAvailable: Bool { availability == .available }

  /// The tokens one session holds on the server model.
  ///
  /// Matches FoundationModels 27 `PrivateCloudComputeLanguageModel.contextSize`, which asks the
  /// service.
  /// - Throws: ``Error/serviceUnavailable(_:)`` on Linux, which cannot reach the service.
  public nonisolated(nonsending) var contextSize: Int {
    get async throws { throw Error.serviceUnavailable(.appleOnly) }
  }

  /// The languages the model supports; none on Linux, where it cannot be used.
  ///
  /// Matches FoundationModels 27 `PrivateCloudComputeLanguageModel.supportedLanguages`.
  public var supportedLanguages: Set<Locale.Language> { [] }

  /// Whether the model supports the locale's language; false on Linux, where it cannot be used.
  ///
  /// Matches FoundationModels 27 `PrivateCloudComputeLanguageModel.supportsLocale(_:)`.
  public func supportsLocale(_ locale: Locale = Locale.current) -> Bool {
    supportedLanguages.contains(locale.language)
  }

  /// Whether the model can be used, and why not.
  ///
  /// Matches FoundationModels 27 `PrivateCloudComputeLanguageModel.Availability` (frozen, as
  /// Apple's is).
  @frozen public enum Availability: Equatable, Sendable {
    case available
    case unavailable(UnavailableReason)

    /// Why the model cannot be used.
    ///
    /// Matches FoundationModels 27 `PrivateCloudComputeLanguageModel.Availability.UnavailableReason`.
    /// On Linux always `deviceNotEligible`.
    @nonexhaustive
    public enum UnavailableReason: Equatable, Sendable, Hashable {
      /// The device cannot use Private Cloud Compute (every Linux machine).
      case deviceNotEligible
      /// The system is not ready yet (for example Apple Intelligence is still setting up).
      case systemNotReady
    }
  }
}

/// Matches FoundationModels 27 `PrivateCloudComputeLanguageModel: Observable`: its availability
/// and quota are the kind of state a view reads (they never change on Linux).
extension PrivateCloudComputeLanguageModel: Observable {}
