import InferenceEngine

extension SystemLanguageModel {
  /// Whether the local model guesses the tokens ahead and has them confirmed in the forward
  /// pass of the token before (speculative decoding).
  ///
  /// Our addition. It changes how fast a response comes, never what the model may answer: a
  /// greedy response is the model's own choice at every token, a sampled one keeps the model's
  /// distribution, and under guided generation a guess the schema does not allow is never made.
  /// A session reports what it guessed in `LocalModelFigures` (`draftTokens`,
  /// `confirmedDraftTokens`).
  public enum Speculation: String, Sendable, Hashable, Codable, CaseIterable {
    /// Prompt lookup: where the last tokens occurred before, in the conversation or the answer
    /// so far, what followed them then is guessed next. Rewriting, editing or extracting from a
    /// given text repeats long spans of it; where guesses keep failing (open chat) they pause.
    case lookup
    /// Prompt lookup where the text repeats a span, and elsewhere the guesses of a draft
    /// model (`SystemLanguageModel(name:…, draftModel:)`): a smaller model with the same
    /// vocabulary, run beside this one. Each guess costs a forward pass of the draft model, so
    /// it pays where that pass is much cheaper than this model's and mostly guesses right
    /// (measured in bench/README.md, P15).
    case draft
    /// One chosen token per forward pass.
    case off

    package var engineValue: InferenceEngine.Speculation {
      switch self {
      case .lookup: .lookup
      case .draft: .draft
      case .off: .off
      }
    }
  }
}

extension SystemLanguageModel {
  /// Whether sessions on this model guess tokens ahead and what their guesses cost on this
  /// machine is not known yet, for the model or for its draft model: the first such session
  /// measures it (`DecodeCosts`, some seconds on a large model and a slow CPU, once per
  /// machine), unless `measureSpeculationCosts()` did.
  /// - Throws: `SystemLanguageModel.Error.assetsUnavailable` where the model or the draft model
  ///   cannot be loaded, or a draft model is given without `.draft` (as the first session would).
  package func speculationCostsNeedMeasuring() async throws -> Bool {
    try await speculatingModels().contains { !$0.model.decodeCostsAreKnown(threads: $0.threads) }
  }

  /// Measures what guessed tokens cost on this machine now, for the model and its draft
  /// model, for a caller that shows progress meanwhile (`fm chat`), so the first answer does
  /// not wait for it.
  package func measureSpeculationCosts() async throws {
    let models = try await speculatingModels()
    await Task.detached { for (model, threads) in models { model.measureDecodeCosts(threads: threads) } }.value
  }

  /// The loaded models whose decode costs speculation weighs, with the threads of their
  /// contexts: none without speculation; the model; with `.draft` the draft model too, on a
  /// context of its own (`InferenceSession.draftConfiguration`).
  private func speculatingModels() async throws -> [(model: LlamaModel, threads: Int)] {
    guard speculation != .off else { return [] }
    var models: [(model: LlamaModel, threads: Int)] = []
    if let model = try await tokenModel() as? LlamaModel { models.append((model, contextConfiguration.threads)) }
    if let draft = try await leasedDraftModel()?.model as? LlamaModel {
      models.append((draft, InferenceSession.draftConfiguration(contextSize: contextSize).threads))
    }
    return models
  }
}
