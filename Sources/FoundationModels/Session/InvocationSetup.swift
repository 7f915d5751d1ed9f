/// What one model invocation of a turn uses: the model, the instructions and tools, the
/// options, and the active profile's history transforms and hooks.
///
/// The session prepares one before every invocation, evaluating its profile and dynamic
/// instructions then. The closures it holds (a profile's transforms and hooks) are used only by
/// the one turn that prepared it, one at a time.
struct InvocationSetup: @unchecked Sendable {
  var runner: ModelRunner
  /// The instructions entry: the evaluated one, else the transcript's own (if any).
  var instructions: Transcript.Entry?
  var tools: [any Tool]
  /// The request's options, the profile's filling what the request leaves nil.
  var options: GenerationOptions
  var contextOptions: ContextOptions
  var historyTransform: ([Transcript.Entry]) -> [Transcript.Entry] = { $0 }
  var hooks: [ProfileHook] = []
  var transcriptErrorHandlingPolicy: TranscriptErrorHandlingPolicy?
}

extension LanguageModelSession {
  /// Prepares the next invocation of a turn: evaluates the profile (running the lifecycle hooks
  /// of branches that became active or inactive), then the dynamic instructions.
  func prepareInvocation(for request: TurnRequest) async -> InvocationSetup {
    var setup = InvocationSetup(
      runner: runner, tools: tools, options: request.options, contextOptions: request.contextOptions)
    var profileInstructions: (any DynamicInstructions)?
    if let profile {
      let resolved = profile.resolve(with: properties)
      await SessionPropertyValues.$current.withValue(properties) {
        for action in profile.activate(resolved) { await action() }
      }
      if let model = resolved.model { setup.runner = runner(for: model) }
      setup.options = request.options.filled(from: resolved.options)
      if setup.contextOptions.reasoningLevel == nil {
        setup.contextOptions.reasoningLevel = resolved.contextOptions.reasoningLevel
      }
      setup.historyTransform = resolved.transformedHistory
      setup.hooks = resolved.hooks
      setup.transcriptErrorHandlingPolicy = resolved.transcriptErrorHandlingPolicy
      profileInstructions = resolved.instructions
    }
    if let evaluated = evaluateDynamicInstructions(profileInstructions: profileInstructions) {
      setup.tools = evaluated.tools
    }
    let current = transcript
    if case .instructions? = current.first { setup.instructions = current.first }
    return setup
  }
}

extension GenerationOptions {
  /// These options, with `defaults`' value for each field that is nil here.
  func filled(from defaults: GenerationOptions) -> GenerationOptions {
    var options = self
    options.samplingMode = samplingMode ?? defaults.samplingMode
    options.temperature = temperature ?? defaults.temperature
    options.maximumResponseTokens = maximumResponseTokens ?? defaults.maximumResponseTokens
    options.toolCallingMode = toolCallingMode ?? defaults.toolCallingMode
    return options
  }
}

/// What a profile hook is called for.
enum HookEvent {
  case prompt(Transcript.Prompt)
  case response(Transcript.Response)
  case toolCall(Transcript.ToolCall)
  case toolOutput(Transcript.ToolCall, Transcript.ToolOutput)
}

extension InvocationSetup {
  /// The profile's hooks for `event`, in order, each ready to call with it.
  func hooks(for event: HookEvent) -> [ProfileHook.Action<>] {
    hooks.compactMap { hook -> ProfileHook.Action<>? in
      switch (hook, event) {
      case (.prompt(let action), .prompt(let prompt)): { try await action(prompt) }
      case (.response(let action), .response(let response)): { try await action(response) }
      case (.toolCall(let action), .toolCall(let call)): { try await action(call) }
      case (.toolOutput(let action), .toolOutput(let call, let output)): { try await action(call, output) }
      default: nil
      }
    }
  }
}
