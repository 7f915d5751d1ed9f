import Foundation
import InferenceEngine
import Observation

extension SystemLanguageModel: LanguageModel {
  /// Guided generation (constrained decoding of any schema) and tool calling (each call
  /// constrained to its tool's schema).
  ///
  /// Vision is not offered. Reasoning depends on the model's chat template, which is read only
  /// when the model loads, so it is not listed here: a model whose template thinks (Qwen3,
  /// DeepSeek-R1, …) returns its thinking as reasoning entries and takes
  /// `ContextOptions.reasoningLevel` through the template's switch; on any other, a reasoning
  /// level fails with `unsupportedCapability(.reasoning)`.
  ///
  /// Matches FoundationModels 27 `SystemLanguageModel.capabilities`.
  public var capabilities: LanguageModelCapabilities {
    LanguageModelCapabilities(capabilities: [.guidedGeneration, .toolCalling])
  }

  /// Matches FoundationModels 27 `SystemLanguageModel.executorConfiguration`: identifies this
  /// model value.
  public var executorConfiguration: Executor.Configuration {
    Executor.Configuration(model: ObjectIdentifier(self))
  }

  /// Runs the local model through llama.cpp: the same path every session takes.
  ///
  /// Matches FoundationModels 27 `SystemLanguageModel.Executor`. An executor keeps one
  /// conversation's KV cache, so the next request evaluates only what its transcript adds; the
  /// weights are shared by every executor on the same file.
  public struct Executor: LanguageModelExecutor {
    public typealias Model = SystemLanguageModel

    private let engine = LocalEngine()

    public init(configuration: Configuration) {}

    /// Loads the model and evaluates the transcript ahead of the next request, in the
    /// background.
    ///
    /// A prompt last in the transcript is the prefix of the next prompt.
    public func prewarm(model: SystemLanguageModel, transcript: Transcript) {
      engine.prewarm(model: model, transcript: transcript)
    }

    /// Generates the answer on llama.cpp's threads, streaming text, then the usage and the
    /// engine's figures (the response's metadata).
    public nonisolated(nonsending) func respond(
      to request: LanguageModelExecutorGenerationRequest, model: SystemLanguageModel,
      streamingInto channel: LanguageModelExecutorGenerationChannel
    ) async throws {
      try await engine.respond(to: request, model: model, channel: channel)
    }

    /// Generates `request`, a prompt of tokens evaluated as they are (no chat template), on
    /// this executor's session, calling `onEvent` with each event until it returns `.stop`.
    ///
    /// Package-level, not Apple's API: `fm serve`'s text completions. It runs as `respond`
    /// does, on a batched model in a slot of its pool.
    /// - Throws: the framework's errors, as `respond` throws them; `onEvent`'s.
    package func generate(
      _ request: GenerationRequest, model: SystemLanguageModel,
      onEvent: (GenerationEvent) async throws -> ModelInvocation.Next
    ) async throws {
      try await engine.generate(request, model: model, onEvent: onEvent)
    }

    /// Matches FoundationModels 27 `SystemLanguageModel.Executor.Configuration` (opaque).
    public struct Configuration: Hashable, Sendable {
      let model: ObjectIdentifier
    }
  }
}

/// Matches FoundationModels' `SystemLanguageModel: Observable` (declared in the 27 interface
/// for 26.0): its availability is the kind of state a view reads.
extension SystemLanguageModel: Observable {}
