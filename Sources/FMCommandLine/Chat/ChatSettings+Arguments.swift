import ModelStore

extension ChatSettings {
  /// The settings of a new chat: a saved chat's (when resuming), overridden by the flags given.
  ///
  /// - Throws: `UsageError` for malformed values.
  init(_ arguments: ParsedArguments, saved: ChatSettings?, environment: [String: String]) throws {
    // ModelOptions validates the shared model flags the same way for every command.
    let shared = try ModelOptions(arguments, environment: environment)
    self = saved ?? ChatSettings(model: ModelCatalog.defaultChatModelName(environment: environment))
    if let model = arguments.value("--model") {
      self.model = try AppleModelName.resolve(model) ?? ModelCatalog.defaultChatModelName(environment: environment)
    }
    if let template = try ModelOptions.chatTemplate(arguments) { chatTemplate = template }
    let speculating = try ModelOptions.speculation(arguments)
    if speculating != ModelOptions.Speculating() {
      // Flags that speak of speculation replace a saved chat's choice whole.
      speculation = speculating.mode
      draftModel = speculating.draftModel
    }
    if let size = arguments.value("--context-size") {
      contextSize = try ModelOptions.positiveInt(size, "--context-size")
    }
    if arguments.value("--temperature") != nil { temperature = shared.generation.temperature }
    if arguments.value("--max-tokens") != nil { maximumResponseTokens = shared.generation.maximumResponseTokens }
    if let sampling = arguments.value("--sampling") {
      let seed = arguments.value("--seed").flatMap { UInt64($0) }
      self.sampling = try SamplingSetting(parsing: sampling, seed: seed)
    } else if arguments.flag("--greedy") {
      sampling = SamplingSetting(mode: .greedy, description: "greedy")
    } else if arguments.value("--seed") != nil {
      throw UsageError("--seed needs --sampling top-k:K or top-p:P")
    }
    if let instructions = arguments.value("--instructions") { self.instructions = instructions }
    if arguments.flag("--verbose") { verbose = true }
    if arguments.flag("--tools") { tools = true }
    if let choice = try ToolChoice(arguments) { toolChoice = choice }
    switch arguments.value("--guardrails") {
    case nil: break
    case "permissive": permissiveGuardrails = true
    case "default": permissiveGuardrails = false
    case let other?: throw UsageError("--guardrails needs default or permissive, not '\(other)'")
    }
    if let percent = arguments.value("--summarize-at") {
      guard let number = Int(percent), (1...100).contains(number) else {
        throw UsageError("--summarize-at needs a percentage from 1 to 100, not '\(percent)'")
      }
      summarizeAt = number
    }
  }
}
