/// What a ``LanguageModel`` supports.
///
/// Matches FoundationModels 27 `LanguageModelCapabilities`: a closed set of four capabilities,
/// queried with ``contains(_:)``. A request that needs a capability the model lacks fails with
/// ``LanguageModelError/unsupportedCapability(_:)`` before the executor is called.
public struct LanguageModelCapabilities: Sendable {
  private let members: Set<Capability>

  /// Creates a set of capabilities.
  ///
  /// Matches FoundationModels 27 `LanguageModelCapabilities.init(_:)` (Apple's later betas; the
  /// labelled ``init(capabilities:)`` is the earlier spelling, kept so both compile).
  public init(_ capabilities: [Capability]) {
    members = Set(capabilities)
  }

  /// Creates a set of capabilities.
  ///
  /// Matches FoundationModels 27 `LanguageModelCapabilities.init(capabilities:)` (earlier betas).
  public init(capabilities: [Capability]) {
    self.init(capabilities)
  }

  /// Whether the model has `capability`.
  public func contains(_ capability: Capability) -> Bool {
    members.contains(capability)
  }

  /// One thing a model may support.
  ///
  /// Matches FoundationModels 27 `LanguageModelCapabilities.Capability` (no public initializer).
  public struct Capability: Sendable, Hashable {
    let name: String

    /// Image attachments in the input.
    public static var vision: Capability { Capability(name: "vision") }
    /// Output constrained to a schema (`respond(…, schema:)`, `generating:`).
    public static var guidedGeneration: Capability { Capability(name: "guidedGeneration") }
    /// Reasoning entries and `ContextOptions.reasoningLevel`.
    public static var reasoning: Capability { Capability(name: "reasoning") }
    /// Tool calls.
    public static var toolCalling: Capability { Capability(name: "toolCalling") }
  }
}

extension LanguageModelCapabilities.Capability: CustomStringConvertible {
  public var description: String { name }
}
