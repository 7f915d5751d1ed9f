/// The options and positional arguments of one command, after parsing.
struct ParsedArguments: Sendable, Equatable {
  /// Values by option key (the option's first name), in command-line order.
  var values: [String: [String]] = [:]
  /// Keys of the flags that were given.
  var flags: Set<String> = []
  /// Arguments that are not options, in order (including everything after `--`).
  var positionals: [String] = []
  /// Whether `--help` or `-h` was given.
  var wantsHelp = false
  /// Every option and flag in command-line order, for commands where the order means something
  /// (`fm schema object`'s modifiers apply to the property before them).
  var given: [Given] = []

  /// An option with its value, or a flag (no value).
  struct Given: Sendable, Equatable {
    let key: String
    let value: String?
  }

  /// Whether the flag with this key was given.
  func flag(_ key: String) -> Bool { flags.contains(key) }

  /// The last value given for the option with this key.
  func value(_ key: String) -> String? { values[key]?.last }

  /// The exact number of positional arguments a command takes.
  ///
  /// - Parameter names: Placeholders for the message, such as `["NAME"]`.
  /// - Throws: `UsageError` when there are more or fewer.
  func positionals(named names: [String], command: String) throws -> [String] {
    guard positionals.count == names.count else {
      if positionals.count > names.count {
        throw UsageError("unexpected argument '\(positionals[names.count])' for '\(command)'")
      }
      throw UsageError("'\(command)' needs \(names[positionals.count]) (see '\(command) --help')")
    }
    return positionals
  }
}
