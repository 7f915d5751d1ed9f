/// The top-level commands of `fm`, in the order `fm --help` lists them.
///
/// Only commands that work are registered; adding one is a new `Subcommand` file and one line here.
enum CommandRegistry {
  static var commands: [any Subcommand.Type] {
    [
      ChatCommand.self,
      RespondCommand.self,
      GenerateCommand.self,
      MenuCommand.self,
      ServeCommand.self,
      ModelsCommand.self,
      TokenCountCommand.self,
      SchemaCommand.self,
      AvailableCommand.self,
      QuotaUsageCommand.self,
    ]
  }
}
