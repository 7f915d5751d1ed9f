import Foundation

/// A unique identifier that is stable for the duration of a response, but not across responses.
///
/// Matches FoundationModels `GenerationID`. Streamed partial objects carry one so that a UI can
/// keep track of the same object while it fills in.
public struct GenerationID: Sendable, Hashable {
  let value: UUID

  /// Creates a new, unique identifier.
  ///
  /// Matches FoundationModels `GenerationID.init()`.
  public init() {
    value = UUID()
  }
}
