import Guardrails

/// The checks a session runs, for requests that come without one: `fm serve --guardrails`.
///
/// One per served model, so the judge's remembered verdicts (instructions that every request
/// resends) and its model are shared by the requests.
package struct RequestGuardrails: Sendable {
  private let runner: ModelRunner
  private let mode: SystemLanguageModel.Guardrails

  /// The checks on `model`'s requests in `mode`.
  package init(model: SystemLanguageModel, mode: SystemLanguageModel.Guardrails) {
    runner = ModelRunner(model)
    self.mode = mode
  }

  /// The checks of one request: in permissive mode, none for a request answered in free text
  /// (`generatesString`, as a session's `String` request).
  package func checks(generatesString: Bool) -> Checks {
    Checks(guardrails: TurnGuardrails(runner: runner, mode: mode, generatesString: generatesString))
  }

  /// One request's checks: its inputs before it runs, its answer as it grows.
  package struct Checks: Sendable {
    let guardrails: TurnGuardrails
    private var checkpoints = StreamingCheckpoints()

    init(guardrails: TurnGuardrails) {
      self.guardrails = guardrails
    }

    /// Checks one text the model reads, named by `source` ("the prompt").
    /// - Throws: `LanguageModelError.guardrailViolation` (input side).
    package func checkInput(_ text: String, source: String) async throws {
      try await guardrails.checkInput(text, source: source)
    }

    /// Checks everything the model reads of `transcript`, as a session checks a turn's inputs:
    /// the instructions, every prompt and tool output, and the earlier answers as a model's
    /// answers are checked (the client writes the whole conversation, so none of it is taken
    /// as checked before). The judge and the probe remember the texts they read, so a
    /// conversation resent every turn costs little more than the classifier's reading of it.
    /// - Throws: `LanguageModelError.guardrailViolation` naming the text's side and source.
    package func checkInputs(of transcript: Transcript) async throws {
      for entry in transcript {
        switch entry {
        case .instructions(let instructions):
          try await guardrails.checkInput(SegmentJoining.text(of: instructions.segments), source: "the instructions")
        case .prompt(let prompt):
          try await guardrails.checkInput(SegmentJoining.text(of: prompt.segments), source: "the prompt")
        case .toolOutput(let output):
          try await guardrails.checkInput(
            SegmentJoining.text(of: output.segments), source: "the output of the tool '\(output.toolName)'")
        case .response(let response):
          try await guardrails.checkOutput(SegmentJoining.text(of: response.segments), source: "an earlier answer")
        default: break
        }
      }
    }

    /// Checks the answer so far before more of it is sent (see `TurnGuardrails.checkGrowingOutput`).
    /// - Throws: `LanguageModelError.guardrailViolation` (output side).
    package mutating func checkGrowingOutput(_ text: String) async throws {
      try await guardrails.checkGrowingOutput(text, checkpoints: &checkpoints)
    }

    /// Checks the whole answer once it is complete.
    /// - Throws: `LanguageModelError.guardrailViolation` (output side).
    package func checkOutput(_ text: String) async throws {
      try await guardrails.checkOutput(text)
    }
  }
}
