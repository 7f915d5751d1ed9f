import ModelStore

/// `fm models path NAME`: prints the file of a present model, for scripts and other tools.
enum ModelsPathCommand: Subcommand {
  static let name = "path"
  static let abstract = "Print the path of a downloaded model (or fail, saying how to fetch it)."
  static let synopsis = "NAME"

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    let name = try arguments.positionals(named: ["NAME"], command: "fm models path")[0]
    context.standardOutput.line(try context.modelStore.resolve(name).path.path)
    return .success
  }
}
