/// Entry point of the `fm` terminal app.
public enum FMTool {
  /// Runs `fm` with the process arguments (without the program name) and returns the exit code.
  public static func run(_ arguments: [String]) async -> Int32 {
    0
  }
}
