import Foundation

/// A model the user asked to fetch: a catalogue model or a Hugging Face reference.
public enum ModelRequest: Sendable {
  case catalogue(ModelDescriptor)
  case hub(HubReference)

  /// Reads a catalogue name or an `hf:` reference.
  /// - Throws: `ModelStoreError` for a malformed reference, `.unknownModel` for a name that
  ///   is neither.
  public init(parsing name: String) throws {
    if let reference = try HubReference.parse(name) {
      self = .hub(reference)
    } else if let model = ModelCatalog.model(named: name) {
      self = .catalogue(model)
    } else {
      let names = ModelCatalog.all.map(\.name).joined(separator: ", ")
      throw ModelStoreError(
        .unknownModel, "unknown model '\(name)'; models: \(names), or hf:OWNER/REPO[:QUANT]", modelName: name)
    }
  }

  /// Fetches the model into `store`, showing progress through `write` (to a terminal where
  /// `isTerminal`).
  /// - Returns: The file to load.
  @discardableResult
  public func pull(into store: ModelStore, isTerminal: Bool, write: @escaping @Sendable (String) -> Void)
    async throws -> URL
  {
    switch self {
    case .catalogue(let model):
      let view = PullProgressView(name: model.name, model: model, isTerminal: isTerminal, write: write)
      return try await store.pull(model) { view.show($0) }
    case .hub(let reference):
      let view = PullProgressView(name: reference.description, isTerminal: isTerminal, write: write)
      return try await store.pull(reference) { view.show($0) }
    }
  }
}
