/// An option or flag a command accepts, such as `--model NAME` or `--verbose`.
struct CommandLineOption: Sendable {
  /// The spellings, long form first (`["--model", "-m"]`); the first is the key for lookups.
  let names: [String]
  /// The placeholder for the value in help (`NAME`), or `nil` for a flag that takes none.
  let valueName: String?
  /// One line for the command's help.
  let help: String

  /// An option that takes a value.
  static func option(_ names: String..., value: String, help: String) -> CommandLineOption {
    CommandLineOption(names: names, valueName: value, help: help)
  }

  /// A flag that takes no value.
  static func flag(_ names: String..., help: String) -> CommandLineOption {
    CommandLineOption(names: names, valueName: nil, help: help)
  }

  /// The name used as the key in `ParsedArguments`.
  var key: String { names.first ?? "" }

  /// Whether a value must follow the option.
  var takesValue: Bool { valueName != nil }
}
