import Foundation

extension ModelStore {
  /// The Hub models in the store whose files are all present and verified, by reference.
  ///
  /// Each is named by its repository, revision and the quant its file name carries (the
  /// reference `fm models rm` and `--model` take); a file whose name carries none is named by
  /// the repository alone.
  public func pulledHubModels() -> [PulledHubModel] {
    var models: [PulledHubModel] = []
    for (owner, repository, revision) in hubRepositoryFolders() {
      let repositoryReference = HubReference(owner: owner, repository: repository, revision: revision)
      let files = pulledFiles(in: repositoryReference)
      for first in files where first.name.isModel && first.name.isFirstPart {
        let tag = first.name.tag
        let reference = repositoryReference.withQuant(tag.isEmpty ? nil : tag)
        // The reference must lead back to this file, and every part must be there.
        guard let chosen = try? GGUFFileChoice.files(for: reference, in: files), chosen[0] == first else { continue }
        let paths = chosen.map { localPath(of: $0, in: reference) }
        models.append(
          PulledHubModel(
            reference: reference, path: paths[0], files: paths, byteCount: chosen.reduce(0) { $0 + $1.byteCount }))
      }
    }
    return models.sorted { $0.reference.description < $1.reference.description }
  }

  /// Removes a model from the store: a catalogue model's file, or every file of a Hub
  /// model's choice, with their markers.
  ///
  /// - Parameter name: A catalogue name or an `hf:` reference.
  /// - Returns: The files removed.
  /// - Throws: `ModelStoreError` with `.modelNotDownloaded` when the model is not in the store,
  ///   `.unknownModel` for a name that is neither, `.fileSystem` when a file cannot be removed.
  @discardableResult
  public func remove(_ name: String) throws -> [URL] {
    let files: [URL]
    if let reference = try HubReference.parse(name) {
      files = try pulledChoice(of: reference).map { localPath(of: $0, in: reference) }
      for file in files { try removeFile(Self.markerPath(of: file)) }
    } else if let model = ModelCatalog.model(named: name) {
      let file = path(for: model)
      guard fileSize(at: file) != nil else { throw ModelStoreError.notDownloaded(model, lookedFor: file) }
      files = [file]
      try removeFile(markerPath(for: model))
    } else {
      throw ModelStoreError.unknown(name)
    }
    for file in files { try removeFile(file) }
    if let first = files.first { removeEmptyFolders(from: first.deletingLastPathComponent()) }
    return files
  }

  /// `OWNER`, `REPO` and `REVISION` of each revision folder under `huggingface/`.
  private func hubRepositoryFolders() -> [(String, String, String)] {
    func folders(_ url: URL) -> [String] {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
      return names.filter { name in
        var isDirectory: ObjCBool = false
        return !name.hasPrefix(".")
          && FileManager.default.fileExists(atPath: url.appendingPathComponent(name).path, isDirectory: &isDirectory)
          && isDirectory.boolValue
      }.sorted()
    }
    var found: [(String, String, String)] = []
    for owner in folders(hubDirectory) {
      let ownerURL = hubDirectory.appendingPathComponent(owner)
      for repository in folders(ownerURL) {
        for revision in folders(ownerURL.appendingPathComponent(repository)) {
          found.append((owner, repository, revision))
        }
      }
    }
    return found
  }

  private func removeFile(_ url: URL) throws {
    guard FileManager.default.fileExists(atPath: url.path) else { return }
    do {
      try FileManager.default.removeItem(at: url)
    } catch {
      throw ModelStoreError(.fileSystem, "cannot remove \(url.path): \(error)")
    }
  }

  /// Removes `folder` and its parents up to `huggingface/` while they hold nothing but lock
  /// files, so removing a repository's last model leaves no empty folders behind.
  private func removeEmptyFolders(from folder: URL) {
    var current = folder.standardizedFileURL
    let root = hubDirectory.standardizedFileURL.path
    while current.path.hasPrefix(root + "/") {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: current.path)) ?? []
      guard names.allSatisfy({ $0.hasPrefix(".") && $0.hasSuffix(".lock") }) else { return }
      try? FileManager.default.removeItem(at: current)
      current = current.deletingLastPathComponent()
    }
  }
}
