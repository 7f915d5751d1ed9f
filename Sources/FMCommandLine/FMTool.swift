import Foundation
import ModelStore

/// Entry point of the `fm` terminal app.
public enum FMTool {
  /// Runs `fm` with the process arguments (without the program name) and returns the exit code.
  public static func run(_ arguments: [String]) async -> Int32 {
    await run(arguments, context: .process()).rawValue
  }

  /// Runs `fm` in `context`: finds the command, parses its options, runs it, maps errors to exit codes.
  static func run(_ arguments: [String], context: CommandContext) async -> ExitCode {
    let errors = context.standardError
    do {
      return try await dispatch(arguments, context: context)
    } catch let error as UsageError {
      errors.line("\(errors.styled("fm:", .red)) \(error.message)")
      return .usage
    } catch is CancellationError {
      errors.line("fm: interrupted")
      return .interrupted
    } catch let error where GuardrailViolationText.description(of: error) != nil {
      errors.line(
        "\(errors.styled("fm: guardrail violation:", .red)) \(GuardrailViolationText.description(of: error) ?? "")")
      return .guardrailViolation
    } catch let error as ModelStoreError {
      errors.line("\(errors.styled("fm: error:", .red)) \(error.messageWithAdvice)")
      return .failure
    } catch let error as any LocalizedError {
      errors.line("\(errors.styled("fm: error:", .red)) \(error.errorDescription ?? "\(error)")")
      return .failure
    } catch {
      errors.line("\(errors.styled("fm: error:", .red)) \(error)")
      return .failure
    }
  }

  /// Walks the command tree along the leading words, then parses the rest for the command found.
  private static func dispatch(_ arguments: [String], context: CommandContext) async throws -> ExitCode {
    guard let first = arguments.first, !first.hasPrefix("-") else {
      // Only `--help`/`-h` (or nothing) may come before a command.
      if let option = arguments.first, option != "--help", option != "-h" {
        throw UsageError("unknown option '\(option)' (see 'fm --help')")
      }
      context.standardOutput.write(CommandHelp.root(commands: CommandRegistry.commands))
      return .success
    }
    guard var command = CommandRegistry.commands.first(where: { $0.name == first }) else {
      let names = CommandRegistry.commands.map { $0.name }.joined(separator: ", ")
      throw UsageError("unknown command '\(first)'; commands: \(names) (see 'fm --help')")
    }
    var path = "fm \(first)"
    var rest = arguments.dropFirst()
    while let word = rest.first, let nested = command.subcommands.first(where: { $0.name == word }) {
      command = nested
      path += " \(word)"
      rest = rest.dropFirst()
    }
    let parsed = try ArgumentParser(options: command.options, command: path).parse(Array(rest))
    if parsed.wantsHelp {
      context.standardOutput.write(CommandHelp.command(command, path: path))
      return .success
    }
    return try await command.run(parsed, context: context)
  }
}
