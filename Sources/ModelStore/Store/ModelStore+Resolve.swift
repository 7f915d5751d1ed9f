import Foundation

extension ModelStore {
  /// Finds the model file for a catalogue name or a path.
  ///
  /// A catalogue name wins; anything else is treated as a path (relative to the current
  /// directory, `~/` expanded).
  ///
  /// - Parameter reference: A name such as `smollm2-135m`, or a path such as `./model.gguf`.
  /// - Throws: `ModelStoreError` with `.modelNotDownloaded` for a catalogue model that is not
  ///   present, `.fileNotFound` for a path that names no file, `.unknownModel` for a bare word
  ///   that is neither.
  public func resolve(_ reference: String) throws -> ResolvedModel {
    if let model = ModelCatalog.model(named: reference) {
      guard isPresent(model) else { throw ModelStoreError.notDownloaded(model, lookedFor: path(for: model)) }
      return ResolvedModel(path: path(for: model), descriptor: model)
    }
    let expanded =
      reference.hasPrefix("~/")
      ? FileManager.default.homeDirectoryForCurrentUser.path + reference.dropFirst(1) : reference
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: expanded, isDirectory: &isDirectory), !isDirectory.boolValue {
      return ResolvedModel(path: URL(fileURLWithPath: expanded).standardizedFileURL, descriptor: nil)
    }
    // A bare word is far more likely a mistyped model name than a missing file in the current directory.
    guard reference.contains("/") || reference.hasSuffix(".gguf") else { throw ModelStoreError.unknown(reference) }
    throw ModelStoreError(.fileNotFound, "no model file at \(expanded)")
  }
}
