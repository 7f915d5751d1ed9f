import Foundation
import ModelStore

extension ModelRequest {
  /// Reads a model the user named on the command line.
  /// - Throws: `UsageError` for a name that is neither a catalogue model nor an `hf:` reference.
  static func named(_ name: String) throws -> ModelRequest {
    do {
      return try ModelRequest(parsing: name)
    } catch let error as ModelStoreError {
      throw UsageError(error.message)
    }
  }

  /// Fetches the model into `store`, showing progress on `output`.
  /// - Returns: The file to load.
  @discardableResult
  func pull(into store: ModelStore, progressTo output: TextOutput) async throws -> URL {
    try await pull(into: store, isTerminal: output.isTerminal) { output.write($0) }
  }
}
