/// The `--help` text of a command, built from its `Subcommand` description.
enum CommandHelp {
  /// The help of the `fm` program itself, listing the registered commands.
  static func root(commands: [any Subcommand.Type]) -> String {
    var text = "fm: FoundationModels for Linux in the terminal\n\nUsage: fm COMMAND [OPTIONS] [ARGUMENTS]\n"
    text += commandList(commands)
    text += "\nOptions:\n" + optionList([])
    text += "\nRun 'fm COMMAND --help' for the options of a command.\n"
    return text
  }

  /// The help of one command, reached through `path` (such as `fm models pull`).
  static func command(_ command: any Subcommand.Type, path: String) -> String {
    var usage = path
    if !command.options.isEmpty { usage += " [OPTIONS]" }
    if !command.synopsis.isEmpty { usage += " " + command.synopsis }
    var text = "\(path): \(command.abstract)\n\nUsage: \(usage)\n"
    if !command.subcommands.isEmpty { text += "       \(path) COMMAND ...\n" }
    if !command.discussion.isEmpty { text += "\n\(command.discussion)\n" }
    text += commandList(command.subcommands)
    text += "\nOptions:\n" + optionList(command.options)
    return text
  }

  private static func commandList(_ commands: [any Subcommand.Type]) -> String {
    guard !commands.isEmpty else { return "" }
    let width = commands.map { $0.name.count }.max() ?? 0
    let rows = commands.map { "  \(pad($0.name, to: width))  \($0.abstract)" }
    return "\nCommands:\n" + rows.joined(separator: "\n") + "\n"
  }

  private static func optionList(_ options: [CommandLineOption]) -> String {
    let all = options + [.flag("--help", "-h", help: "Show this help.")]
    let labels = all.map { option in
      option.names.joined(separator: ", ") + (option.valueName.map { " \($0)" } ?? "")
    }
    let width = labels.map(\.count).max() ?? 0
    return zip(labels, all).map { "  \(pad($0, to: width))  \($1.help)\n" }.joined()
  }

  private static func pad(_ text: String, to width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
  }
}
