/// Options that control how the model generates its response to a prompt.
///
/// Matches FoundationModels `GenerationOptions`. Every field defaults to `nil`, which lets the
/// session choose: the integrator documents the defaults it picks for the model it runs.
public struct GenerationOptions: Sendable, Equatable {
  /// The sampling strategy; `nil` lets the session choose.
  ///
  /// Matches FoundationModels `GenerationOptions.sampling`.
  public var sampling: SamplingMode?

  /// The temperature, between 0 and 1 inclusive; `nil` lets the session choose.
  ///
  /// Matches FoundationModels `GenerationOptions.temperature`. 1 leaves the model's distribution
  /// as it is; lower values sharpen it. Out-of-range values are not rejected here; the session
  /// decides how to treat them (Apple does not document it).
  public var temperature: Double?

  /// The most tokens the response may have; reaching it ends the response early without an
  /// error. Must be positive.
  ///
  /// Matches FoundationModels `GenerationOptions.maximumResponseTokens`.
  public var maximumResponseTokens: Int?

  /// Whether the model may, must or must not call the session's tools; `nil` means `allowed`.
  ///
  /// Matches FoundationModels 27 `GenerationOptions.toolCallingMode`.
  public var toolCallingMode: ToolCallingMode?

  /// Creates generation options.
  ///
  /// Matches FoundationModels `GenerationOptions.init(sampling:temperature:maximumResponseTokens:)`.
  public init(
    sampling: SamplingMode? = nil, temperature: Double? = nil, maximumResponseTokens: Int? = nil
  ) {
    self.sampling = sampling
    self.temperature = temperature
    self.maximumResponseTokens = maximumResponseTokens
  }

  /// Creates generation options, with the iOS 27 name of the sampling parameter.
  ///
  /// Mirrors FoundationModels 27's `GenerationOptions.init(samplingMode:temperature:maximumResponseTokens:)`
  /// (back-deployed by Apple to 26.0), so code written for the newer SDK compiles. Unlike
  /// Apple's, `samplingMode` has no default here, so that `GenerationOptions()` stays unambiguous.
  @_disfavoredOverload
  public init(
    samplingMode: SamplingMode?, temperature: Double? = nil, maximumResponseTokens: Int? = nil
  ) {
    self.init(
      sampling: samplingMode, temperature: temperature,
      maximumResponseTokens: maximumResponseTokens)
  }

  /// Creates generation options with a tool-calling mode.
  ///
  /// Matches FoundationModels 27
  /// `GenerationOptions.init(samplingMode:temperature:maximumResponseTokens:toolCallingMode:)`
  /// (`toolCallingMode` has no default, so that the other initializers stay unambiguous).
  public init(
    samplingMode: SamplingMode? = nil, temperature: Double? = nil, maximumResponseTokens: Int? = nil,
    toolCallingMode: ToolCallingMode?
  ) {
    self.init(sampling: samplingMode, temperature: temperature, maximumResponseTokens: maximumResponseTokens)
    self.toolCallingMode = toolCallingMode
  }

  /// The sampling strategy, by its iOS 27 name; the same storage as ``sampling``.
  ///
  /// Mirrors FoundationModels 27's `GenerationOptions.samplingMode`.
  public var samplingMode: SamplingMode? {
    get { sampling }
    set { sampling = newValue }
  }
}
