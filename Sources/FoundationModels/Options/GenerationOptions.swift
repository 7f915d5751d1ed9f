/// Options that control how the model generates its response to a prompt.
///
/// Matches FoundationModels `GenerationOptions`. Every field defaults to `nil`, which lets the
/// session choose: the integrator documents the defaults it picks for the model it runs.
public struct GenerationOptions: Sendable, Equatable {
  /// The sampling strategy; `nil` lets the session choose.
  ///
  /// Matches FoundationModels 27 `GenerationOptions.samplingMode` (back-deployed by Apple to
  /// 26.0; the 26 name `sampling` is deprecated).
  public var samplingMode: SamplingMode?

  /// The temperature, between 0 and 1 inclusive; `nil` lets the session choose.
  ///
  /// Matches FoundationModels `GenerationOptions.temperature`. 1 leaves the model's distribution
  /// as it is; lower values sharpen it. Out-of-range values are not rejected here; the session
  /// decides how to treat them (Apple does not document it).
  public var temperature: Double?

  /// The most tokens the response may have; reaching it ends the response early without an
  /// error.
  ///
  /// Must be positive.
  ///
  /// Matches FoundationModels `GenerationOptions.maximumResponseTokens`.
  public var maximumResponseTokens: Int?

  /// Whether the model may, must or must not call the session's tools; `nil` means `allowed`.
  ///
  /// Matches FoundationModels 27 `GenerationOptions.toolCallingMode`.
  public var toolCallingMode: ToolCallingMode?

  /// Creates generation options.
  ///
  /// Matches FoundationModels 27 `GenerationOptions.init(samplingMode:temperature:maximumResponseTokens:)`.
  public init(samplingMode: SamplingMode? = nil, temperature: Double? = nil, maximumResponseTokens: Int? = nil) {
    self.samplingMode = samplingMode
    self.temperature = temperature
    self.maximumResponseTokens = maximumResponseTokens
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
    self.init(samplingMode: samplingMode, temperature: temperature, maximumResponseTokens: maximumResponseTokens)
    self.toolCallingMode = toolCallingMode
  }

  /// Creates generation options, by the 26 name of the sampling parameter.
  ///
  /// Matches FoundationModels `GenerationOptions.init(sampling:temperature:maximumResponseTokens:)`
  /// as the 27 SDK declares it: deprecated, and `sampling` has no default, so that
  /// `GenerationOptions()` means the 27 initializer.
  @available(*, deprecated, renamed: "init(samplingMode:temperature:maximumResponseTokens:)")
  public init(sampling: SamplingMode?, temperature: Double? = nil, maximumResponseTokens: Int? = nil) {
    self.init(samplingMode: sampling, temperature: temperature, maximumResponseTokens: maximumResponseTokens)
  }

  /// The sampling strategy, by its 26 name; the same storage as ``samplingMode``.
  ///
  /// Matches FoundationModels `GenerationOptions.sampling`, deprecated in 27.
  @available(*, deprecated, renamed: "samplingMode")
  public var sampling: SamplingMode? {
    get { samplingMode }
    set { samplingMode = newValue }
  }
}
