import Foundation

extension LanguageModelError {
  /// Matches FoundationModels 27 `LanguageModelError.ContextSizeExceeded`.
  public struct ContextSizeExceeded: Sendable {
    /// The model's context size, in tokens.
    public var contextSize: Int
    /// The tokens the request needed.
    public var tokenCount: Int
    public var debugDescription: String
    public var metadata: [String: any Sendable]

    public init(contextSize: Int, tokenCount: Int, debugDescription: String, metadata: [String: any Sendable] = [:]) {
      self.contextSize = contextSize
      self.tokenCount = tokenCount
      self.debugDescription = debugDescription
      self.metadata = metadata
    }
  }

  /// Matches FoundationModels 27 `LanguageModelError.RateLimited`.
  public struct RateLimited: Sendable {
    /// When requests may resume, if the provider said.
    public var resetDate: Date?
    public var debugDescription: String
    public var metadata: [String: any Sendable]

    public init(resetDate: Date?, debugDescription: String, metadata: [String: any Sendable] = [:]) {
      self.resetDate = resetDate
      self.debugDescription = debugDescription
      self.metadata = metadata
    }
  }

  /// Matches FoundationModels 27 `LanguageModelError.GuardrailViolation`.
  public struct GuardrailViolation: Sendable {
    public var debugDescription: String
    public var metadata: [String: any Sendable]

    public init(debugDescription: String, metadata: [String: any Sendable] = [:]) {
      self.debugDescription = debugDescription
      self.metadata = metadata
    }
  }

  /// Matches FoundationModels 27 `LanguageModelError.Refusal`.
  public struct Refusal: Sendable {
    public var debugDescription: String
    public var metadata: [String: any Sendable]

    public init(debugDescription: String, metadata: [String: any Sendable] = [:]) {
      self.debugDescription = debugDescription
      self.metadata = metadata
    }
  }

  /// Matches FoundationModels 27 `LanguageModelError.UnsupportedCapability`.
  public struct UnsupportedCapability: Sendable {
    /// The capability the request needed.
    public var capability: LanguageModelCapabilities.Capability
    public var debugDescription: String
    public var metadata: [String: any Sendable]

    public init(
      capability: LanguageModelCapabilities.Capability, debugDescription: String, metadata: [String: any Sendable] = [:]
    ) {
      self.capability = capability
      self.debugDescription = debugDescription
      self.metadata = metadata
    }
  }

  /// Matches FoundationModels 27 `LanguageModelError.UnsupportedTranscriptContent`.
  public struct UnsupportedTranscriptContent: Sendable {
    /// The entries the model cannot read.
    public var unsupportedContent: [Transcript.Entry]
    public var debugDescription: String
    public var metadata: [String: any Sendable]

    public init(
      unsupportedContent: [Transcript.Entry], debugDescription: String, metadata: [String: any Sendable] = [:]
    ) {
      self.unsupportedContent = unsupportedContent
      self.debugDescription = debugDescription
      self.metadata = metadata
    }
  }

  /// Matches FoundationModels 27 `LanguageModelError.UnsupportedGenerationGuide`.
  public struct UnsupportedGenerationGuide: Sendable {
    /// The schema with the guide, if it has a name.
    public var schemaName: String?
    public var debugDescription: String
    public var metadata: [String: any Sendable]

    public init(schemaName: String?, debugDescription: String, metadata: [String: any Sendable] = [:]) {
      self.schemaName = schemaName
      self.debugDescription = debugDescription
      self.metadata = metadata
    }
  }

  /// Matches FoundationModels 27 `LanguageModelError.UnsupportedLanguageOrLocale`.
  public struct UnsupportedLanguageOrLocale: Sendable {
    public var languageCode: Locale.LanguageCode
    public var debugDescription: String
    public var metadata: [String: any Sendable]

    public init(languageCode: Locale.LanguageCode, debugDescription: String, metadata: [String: any Sendable] = [:]) {
      self.languageCode = languageCode
      self.debugDescription = debugDescription
      self.metadata = metadata
    }
  }

  /// Matches FoundationModels 27 `LanguageModelError.Timeout`.
  public struct Timeout: Sendable {
    public var debugDescription: String
    public var metadata: [String: any Sendable]

    public init(debugDescription: String, metadata: [String: any Sendable] = [:]) {
      self.debugDescription = debugDescription
      self.metadata = metadata
    }
  }
}
