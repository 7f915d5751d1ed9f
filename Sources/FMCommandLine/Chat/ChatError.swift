import Foundation

/// A chat failure that is not the model's: a file that cannot be read or written, a model name
/// that names nothing.
///
/// `fm` prints the message and exits with 1.
struct ChatError: Error, LocalizedError, Sendable {
  let message: String
  init(_ message: String) { self.message = message }
  var errorDescription: String? { message }
}
