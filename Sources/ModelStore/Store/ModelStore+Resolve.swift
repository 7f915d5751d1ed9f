import Foundation

extension ModelStore {
  /// Finds the model file for a catalogue name, a Hugging Face reference or a path.
  ///
  /// A catalogue name wins; `hf:OWNER/REPO[:QUANT]` is looked for among the models pulled
  /// from the Hub (the network is never used: see `pull(_:progress:)` for that); anything else
  /// is treated as a path (relative to the current directory, `~/` expanded).
  ///
  /// - Parameter reference: A name such as `smollm2-135m`, a reference such as
  ///   `hf:Qwen/Qwen2.5-0.5B-Instruct-GGUF:Q4_K_M`, or a path such as `./model.gguf`.
  /// - Throws: `ModelStoreError` with `.modelNotDownloaded` for a catalogue or Hub model that
  ///   is not present, `.fileNotFound` for a path that names no file, `.unknownModel` for a
  ///   bare word that is neither (or a malformed `hf:` reference).
  public func resolve(_ reference: String) throws -> ResolvedModel {
    if let hubReference = try HubReference.parse(reference) {
      return ResolvedModel(path: try resolve(hubReference), descriptor: nil)
    }
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
    // OWNER/REPO is more likely a Hub repository written without its prefix than a folder.
    let looksLikeRepository =
      !reference.hasPrefix("/") && !reference.hasPrefix(".") && !reference.hasPrefix("~")
      && reference.split(separator: "/", omittingEmptySubsequences: false).count == 2
      && !reference.hasSuffix(".gguf")
    let hint = looksLikeRepository ? " (for a Hugging Face repository, write hf:\(reference))" : ""
    throw ModelStoreError(.fileNotFound, "no model file at \(expanded)\(hint)")
  }
}
