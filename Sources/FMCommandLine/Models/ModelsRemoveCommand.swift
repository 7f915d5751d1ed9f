import ModelStore

/// `fm models rm NAME...`: deletes models from the store, to free the disk.
enum ModelsRemoveCommand: Subcommand {
  static let name = "rm"
  static let abstract = "Delete a downloaded model (a catalogue name or an hf: reference) from the store."
  static let synopsis = "NAME|hf:OWNER/REPO[:QUANT]..."
  static let discussion = """
    Removes the model's files (every part of a split model) and their verification markers,
    and prints each file removed. A model that is not in the store is an error.
    """

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    guard !arguments.positionals.isEmpty else {
      throw UsageError("'fm models rm' needs a model NAME or hf:OWNER/REPO[:QUANT] (see 'fm models')")
    }
    for name in arguments.positionals {
      for file in try context.modelStore.remove(name) {
        context.standardOutput.line("removed \(file.path)")
      }
    }
    return .success
  }
}
