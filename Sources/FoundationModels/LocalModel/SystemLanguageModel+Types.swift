extension SystemLanguageModel {
  /// Matches FoundationModels `SystemLanguageModel.Availability`.
  @frozen public enum Availability: Equatable, Sendable {
    case available
    case unavailable(UnavailableReason)

    /// Matches FoundationModels `SystemLanguageModel.Availability.UnavailableReason`.
    ///
    /// On Linux only `modelNotReady` occurs: the model file has not been fetched into the cache.
    @nonexhaustive
    public enum UnavailableReason: Equatable, Sendable, Hashable {
      case appleIntelligenceNotEnabled
      case deviceNotEligible
      case modelNotReady
    }
  }

  /// Matches FoundationModels `SystemLanguageModel.UseCase`.
  public struct UseCase: Sendable, Equatable {
    let name: String

    /// The general-purpose use case of the base model.
    public static let general = UseCase(name: "general")
    /// Tagging: the model answers with tags (topics, emotions, actions, objects) of one to a
    /// few lowercase words.
    ///
    /// On Linux this is done by instructions added before the session's own.
    public static let contentTagging = UseCase(name: "contentTagging")
  }

  /// Matches FoundationModels `SystemLanguageModel.Guardrails`.
  public struct Guardrails: Sendable, Equatable {
    let isPermissive: Bool

    /// Blocks unsafe content in prompts and responses.
    public static let `default` = Guardrails(isPermissive: false)
    /// Skips guardrail checks for `String` requests, which then never fail with a guardrail
    /// violation (the model may still refuse in words); requests for other types are checked as
    /// with `default`.
    public static let permissiveContentTransformations = Guardrails(isPermissive: true)
  }
}
