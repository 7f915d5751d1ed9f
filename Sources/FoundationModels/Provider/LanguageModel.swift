/// A model a session can run on: a lightweight description of which model, with which settings.
///
/// Matches FoundationModels 27 `LanguageModel`. All generation happens in the model's
/// ``Executor``, which the session creates from ``executorConfiguration``; sessions on models
/// with equal configurations share one executor (a loaded set of weights, an HTTP client).
/// `SystemLanguageModel` (the local llama.cpp model) conforms, and so can any provider package.
public protocol LanguageModel: Sendable {
  /// The type that runs this model's requests.
  associatedtype Executor: LanguageModelExecutor where Self == Self.Executor.Model
  /// What the model supports; the session refuses requests that need anything else.
  var capabilities: LanguageModelCapabilities { get }
  /// The value the executor is created from (`Executor(configuration:)`).
  var executorConfiguration: Self.Executor.Configuration { get }
}
