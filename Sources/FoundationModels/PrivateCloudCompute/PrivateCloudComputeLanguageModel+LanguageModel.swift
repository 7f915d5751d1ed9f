extension PrivateCloudComputeLanguageModel: LanguageModel {
  /// None: on Linux the model cannot serve any request.
  ///
  /// Matches FoundationModels 27 `PrivateCloudComputeLanguageModel.capabilities`. A session
  /// therefore refuses a request that needs a capability (a schema, tools) with
  /// `LanguageModelError.unsupportedCapability` before the executor is asked, and any other
  /// request fails in the executor with ``Error/serviceUnavailable(_:)``.
  public var capabilities: LanguageModelCapabilities {
    LanguageModelCapabilities(capabilities: [])
  }

  /// Matches FoundationModels 27 `PrivateCloudComputeLanguageModel.executorConfiguration`.
  public var executorConfiguration: Executor.Configuration {
    Executor.Configuration()
  }

  /// Runs requests on Private Cloud Compute; on Linux every request fails.
  ///
  /// Matches FoundationModels 27 `PrivateCloudComputeLanguageModel.Executor`, with the shape of
  /// `SystemLanguageModel.Executor`.
  public struct Executor: LanguageModelExecutor {
    public typealias Model = PrivateCloudComputeLanguageModel

    public init(configuration: Configuration) {}

    /// Does nothing: there is no service to warm up.
    public func prewarm(model: PrivateCloudComputeLanguageModel, transcript: Transcript) {}

    /// Fails: Private Cloud Compute cannot be reached from Linux.
    /// - Throws: ``PrivateCloudComputeLanguageModel/Error/serviceUnavailable(_:)``, always, having
    ///   sent nothing into the channel.
    public nonisolated(nonsending) func respond(
      to request: LanguageModelExecutorGenerationRequest, model: PrivateCloudComputeLanguageModel,
      streamingInto channel: LanguageModelExecutorGenerationChannel
    ) async throws {
      throw PrivateCloudComputeLanguageModel.Error.serviceUnavailable(.appleOnly)
    }

    /// Matches FoundationModels 27 `PrivateCloudComputeLanguageModel.Executor.Configuration` (opaque).
    public struct Configuration: Hashable, Sendable {}
  }
}
