/// `fm quota-usage`, as Apple's `fm` on macOS 27 has it: the local models have no quota.
enum QuotaUsageCommand: Subcommand {
  static let name = "quota-usage"
  static let abstract = "Show the Private Cloud Compute quota: not applicable to local models."

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    context.standardOutput.line("Not applicable")
    return .success
  }
}
