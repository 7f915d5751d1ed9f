import Foundation
import ModelStore

/// A model the user asked to fetch: a catalogue model or a Hugging Face reference.
enum ModelRequest {
  case catalogue(ModelDescriptor)
  case hub(HubReference)

  /// Reads a catalogue name or an `hf:` reference.
  /// - Throws: `UsageError` for a name that is neither, or a malformed reference.
  init(parsing name: String) throws {
    do {
      if let reference = try HubReference.parse(name) {
        self = .hub(reference)
        return
      }
    } catch let error as ModelStoreError {
      throw UsageError(error.message)
    }
    guard let model = ModelCatalog.model(named: name) else {
      let names = ModelCatalog.all.map(\.name).joined(separator: ", ")
      throw UsageError("unknown model '\(name)'; models: \(names), or hf:OWNER/REPO[:QUANT]")
    }
    self = .catalogue(model)
  }

  /// Fetches the model into `store`, showing progress on `output`.
  /// - Returns: The file to load.
  @discardableResult
  func pull(into store: ModelStore, progressTo output: TextOutput) async throws -> URL {
    switch self {
    case .catalogue(let model):
      let view = PullProgressView(model: model, output: output)
      return try await store.pull(model) { view.show($0) }
    case .hub(let reference):
      let view = PullProgressView(name: reference.description, output: output)
      return try await store.pull(reference) { view.show($0) }
    }
  }
}
