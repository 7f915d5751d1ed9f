/// Splits a command's arguments into options, flags and positionals.
///
/// Accepts `--name value`, `--name=value`, `-n value`, flags anywhere, `--` to end options,
/// and `-h`/`--help` on every command. A lone `-` is a positional (it conventionally means
/// standard input). Anything else that starts with `-` and is not declared is a usage error,
/// so a typo never silently becomes a prompt.
struct ArgumentParser: Sendable {
  /// The options the command declares (`--help` is implicit).
  let options: [CommandLineOption]
  /// The command path for messages, such as `fm models pull`.
  let command: String

  /// Parses `arguments`.
  ///
  /// - Throws: `UsageError` for an undeclared option, a missing value, or a value given to a flag.
  func parse(_ arguments: [String]) throws -> ParsedArguments {
    var parsed = ParsedArguments()
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      if argument == "--" {
        parsed.positionals.append(contentsOf: remaining)
        break
      }
      guard argument.hasPrefix("-"), argument != "-" else {
        parsed.positionals.append(argument)
        continue
      }
      if argument == "--help" || argument == "-h" {
        parsed.wantsHelp = true
        continue
      }
      let (name, inlineValue) = split(argument)
      guard let option = options.first(where: { $0.names.contains(name) }) else {
        throw UsageError("unknown option '\(name)' for '\(command)' (see '\(command) --help')")
      }
      if option.takesValue {
        guard let value = inlineValue ?? remaining.popFirst() else {
          throw UsageError("option '\(name)' of '\(command)' needs a value")
        }
        parsed.values[option.key, default: []].append(value)
        parsed.given.append(.init(key: option.key, value: value))
      } else {
        guard inlineValue == nil else { throw UsageError("option '\(name)' of '\(command)' takes no value") }
        parsed.flags.insert(option.key)
        parsed.given.append(.init(key: option.key, value: nil))
      }
    }
    return parsed
  }

  /// Splits `--name=value` into its name and value; other forms have no inline value.
  private func split(_ argument: String) -> (name: String, value: String?) {
    guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
    return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
  }
}
