/// One command of `fm`, such as `fm models` or `fm models pull`.
///
/// To add a command: write a type conforming to this protocol in its own file, and add it to
/// `CommandRegistry.commands` (or to a parent command's `subcommands`). The dispatcher takes
/// care of finding it, `--help`, option parsing, and mapping errors to exit codes.
protocol Subcommand {
  /// The word that selects the command (`models`).
  static var name: String { get }
  /// One line for the command list in the parent's help.
  static var abstract: String { get }
  /// What follows the command path in the usage line (`NAME...`); empty when nothing does.
  static var synopsis: String { get }
  /// Paragraphs after the usage line in the command's help; empty for none.
  static var discussion: String { get }
  /// The options and flags the command accepts (`--help` is implicit).
  static var options: [CommandLineOption] { get }
  /// Commands nested under this one (`models` → `pull`, `path`).
  static var subcommands: [any Subcommand.Type] { get }

  /// Runs the command.
  ///
  /// - Returns: The exit code; commands that succeed return `.success`.
  /// - Throws: `UsageError` for a wrong command line (exit 64), `CancellationError` when
  ///   interrupted (exit 130), any other error to fail with its description (exit 1).
  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode
}

extension Subcommand {
  static var synopsis: String { "" }
  static var discussion: String { "" }
  static var options: [CommandLineOption] { [] }
  static var subcommands: [any Subcommand.Type] { [] }
}
