/// The exit statuses of `fm`, in one place (BSD `sysexits.h` for usage, shell convention for interrupts).
public enum ExitCode: Int32, Sendable {
  /// The command did what was asked.
  case success = 0
  /// The command failed; a message on standard error says why.
  case failure = 1
  /// The guardrails blocked the prompt or the reply (a guardrail violation); a message on
  /// standard error says which side and which category.
  case guardrailViolation = 3
  /// The command line was wrong (`EX_USAGE`); a one-line message on standard error says how.
  case usage = 64
  /// Stopped by Ctrl+C (128 + SIGINT).
  case interrupted = 130
}
