import Foundation

/// A model file found from what a user typed: a catalogue name or a path to a GGUF file.
public struct ResolvedModel: Sendable, Equatable {
  /// The GGUF file to load.
  public let path: URL
  /// The catalogue entry, when the model was named rather than given as a path.
  public let descriptor: ModelDescriptor?

  /// Creates a resolved model.
  public init(path: URL, descriptor: ModelDescriptor?) {
    self.path = path
    self.descriptor = descriptor
  }

  /// A name for messages: the catalogue name, or the file name.
  public var displayName: String { descriptor?.name ?? path.lastPathComponent }
}
