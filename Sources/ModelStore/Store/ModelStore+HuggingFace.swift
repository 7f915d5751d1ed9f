import Foundation

/// Models from the Hugging Face Hub, named `hf:OWNER/REPO[@REVISION][:QUANT]`.
///
/// A repository's files keep their paths under `huggingface/OWNER/REPO/REVISION/` in the
/// store, so the parts of a split model lie side by side under the names llama.cpp finds them
/// by. Each file gets a marker beside it (`NAME.sha256-ok`, holding the Hub's sha256 and the
/// size) once its hash has been checked; a file without one is never used.
extension ModelStore {
  /// Fetches the files `reference` names from the Hub, or finds them in the store when
  /// `HF_HUB_OFFLINE` is set.
  ///
  /// The repository's file list chooses the files (see `GGUFFileChoice`). Each file is
  /// downloaded to a hidden `.partial` file beside its place, resumed with a `Range` request
  /// when the connection drops (and, the next time, after a killed pull), checked against the
  /// size and sha256 the Hub lists, and only then renamed into place. Files already in the
  /// store with the hash the Hub lists now are not fetched again. A lock per file makes a
  /// second pull of the same file wait for the first and then find it present.
  ///
  /// - Parameters:
  ///   - reference: The repository, revision and quant.
  ///   - progress: Called with each step, from the calling task.
  /// - Returns: The file to load: the model's only file, or the first part of a split model.
  /// - Throws: `ModelStoreError`: `.accessDenied`, `.repositoryNotFound`, `.noMatchingFile`,
  ///   `.fetchFailed`, `.checksumMismatch` (the bad file removed), `.fileSystem`, or
  ///   `.modelNotDownloaded` when offline and the model is not in the store; `CancellationError`.
  @discardableResult
  public func pull(
    _ reference: HubReference, progress: @Sendable (ModelPullProgress) -> Void = { _ in }
  ) async throws -> URL {
    if hub.offline {
      do {
        let path = try resolve(reference)
        progress(.alreadyPresent(path: path.path))
        return path
      } catch let error as ModelStoreError where error.code == .modelNotDownloaded {
        throw ModelStoreError(
          .modelNotDownloaded,
          "\(reference) is not in \(directory.path), and HF_HUB_OFFLINE is set, so it is not fetched: "
            + "unset HF_HUB_OFFLINE to download it")
      }
    }
    let listing = try await HubFileList(settings: hub).files(of: reference)
    let files = try GGUFFileChoice.files(for: reference, in: listing)
    let first = localPath(of: files[0], in: reference)
    if files.allSatisfy({ isPresent($0, in: reference) }) {
      progress(.alreadyPresent(path: first.path))
      return first
    }
    for (index, file) in files.enumerated() {
      try await pullFile(file, of: reference, part: index + 1, count: files.count, progress: progress)
    }
    progress(.finished(path: first.path))
    return first
  }

  /// The first file of a pulled Hub model, chosen among the files in the store by the rule
  /// the Hub's list is chosen by; never touches the network.
  ///
  /// - Throws: `ModelStoreError(.modelNotDownloaded)` when the store has no file the
  ///   reference chooses, or lacks a part of it.
  public func resolve(_ reference: HubReference) throws -> URL {
    localPath(of: try pulledChoice(of: reference)[0], in: reference)
  }

  /// The files of the store that `reference` chooses, the first part first.
  ///
  /// - Throws: `ModelStoreError(.modelNotDownloaded)` when there are none, or a part is missing.
  func pulledChoice(of reference: HubReference) throws -> [HubFile] {
    guard let files = try? GGUFFileChoice.files(for: reference, in: pulledFiles(in: reference)) else {
      throw ModelStoreError(
        .modelNotDownloaded,
        "model '\(reference)' is not downloaded yet: nothing for it in \(repositoryDirectory(of: reference).path)",
        modelName: reference.description)
    }
    return files
  }

  /// Where `file` of the repository `reference` names lives in the store.
  func localPath(of file: HubFile, in reference: HubReference) -> URL {
    repositoryDirectory(of: reference).appendingPathComponent(file.path)
  }

  /// The folder of one revision of a repository: `huggingface/OWNER/REPO/REVISION`.
  func repositoryDirectory(of reference: HubReference) -> URL {
    hubDirectory.appendingPathComponent(reference.owner, isDirectory: true)
      .appendingPathComponent(reference.repository, isDirectory: true)
      .appendingPathComponent(reference.revision, isDirectory: true)
  }

  /// The folder that holds every Hub model of the store.
  var hubDirectory: URL { directory.appendingPathComponent("huggingface", isDirectory: true) }

  /// Whether `file` is in place with the listed size and a marker recording the listed hash.
  func isPresent(_ file: HubFile, in reference: HubReference) -> Bool {
    let path = localPath(of: file, in: reference)
    return fileSize(at: path) == file.byteCount
      && (try? String(contentsOf: Self.markerPath(of: path), encoding: .utf8)) == Self.marker(for: file)
  }

  /// The verified GGUF files of one revision of a repository, by path, as `HubFile`s read
  /// back from their markers.
  func pulledFiles(in reference: HubReference) -> [HubFile] {
    let root = repositoryDirectory(of: reference)
    guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
    var files: [HubFile] = []
    while let relative = walker.nextObject() as? String {
      guard relative.hasSuffix(".gguf"), !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) else {
        continue
      }
      let path = root.appendingPathComponent(relative)
      guard let text = try? String(contentsOf: Self.markerPath(of: path), encoding: .utf8),
        let file = Self.file(fromMarker: text, path: relative), fileSize(at: path) == file.byteCount
      else { continue }
      files.append(file)
    }
    return files.sorted { $0.path < $1.path }
  }

  /// Downloads, checks and places one file, under its lock.
  private func pullFile(
    _ file: HubFile, of reference: HubReference, part: Int, count: Int,
    progress: @Sendable (ModelPullProgress) -> Void
  ) async throws {
    let destination = localPath(of: file, in: reference)
    let folder = destination.deletingLastPathComponent()
    try createDirectory(folder)
    let lock = folder.appendingPathComponent(".\(destination.lastPathComponent).lock")
    try await FileLock.withExclusiveLock(on: lock, waiting: { progress(.waitingForOtherPull) }) {
      // The pull that held the lock may have just put the file in place.
      if isPresent(file, in: reference) { return }
      try? FileManager.default.removeItem(at: Self.markerPath(of: destination))
      let partial = partialPath(of: file, at: destination)
      removeStalePartials(of: destination, keeping: partial)
      let download = ResumableDownload(
        url: try hub.url(
          "/\(reference.repositoryID)/resolve/\(HubPath.escaped(reference.revision))/\(HubPath.escaped(file.path))"),
        token: hub.token, destination: partial, byteCount: file.byteCount)
      let digest = try await download.run(
        hashing: file.sha256 != nil,
        progress: { event in
          switch event {
          case .resuming(let byte):
            progress(.resuming(file: file.path, fromByte: byte))
          case .received(let bytes, let rate):
            progress(
              .downloading(
                file: file.path, part: part, count: count, bytes: bytes, totalBytes: file.byteCount,
                bytesPerSecond: rate))
          }
        },
        httpError: { status in
          HubStatus.error(status, reference: reference, settings: hub, url: download.url)
        })
      defer { digest?.stop() }
      progress(.verifying)
      try await verify(partial, against: file, of: reference, digest: digest)
      try moveIntoPlace(partial, destination)
      do {
        try Data(Self.marker(for: file).utf8).write(to: Self.markerPath(of: destination), options: .atomic)
      } catch {
        throw ModelStoreError(.fileSystem, "cannot write the marker of \(destination.path): \(error)")
      }
    }
  }

  /// Checks a downloaded file's size and sha256 (from `digest`, which has followed the
  /// download) against the Hub's list; removes the file when they differ.
  private func verify(
    _ partial: URL, against file: HubFile, of reference: HubReference, digest: GrowingFileDigest?
  ) async throws {
    let size = fileSize(at: partial) ?? 0
    var problem: String?
    if size != file.byteCount {
      problem = "has \(size) bytes, the Hub lists \(file.byteCount)"
    } else if let expected = file.sha256, let digest {
      let actual = try await digest.finish()
      if actual != expected { problem = "has sha256 \(actual), the Hub lists \(expected)" }
    }
    guard let problem else { return }
    try? FileManager.default.removeItem(at: partial)
    throw ModelStoreError(
      .checksumMismatch, "\(file.path) of \(reference.repositoryID) \(problem); the download was removed",
      modelName: reference.description)
  }

  /// The download in progress of `file`: hidden, and named after the hash it should end with,
  /// so the leftover of a pull of an older version of the file is never resumed.
  private func partialPath(of file: HubFile, at destination: URL) -> URL {
    let version = file.sha256.map { String($0.prefix(16)) } ?? "\(file.byteCount)"
    return destination.deletingLastPathComponent()
      .appendingPathComponent(".\(destination.lastPathComponent).\(version).partial")
  }

  /// Removes downloads of other versions of the file at `destination`; under the file's lock.
  private func removeStalePartials(of destination: URL, keeping current: URL) {
    let folder = destination.deletingLastPathComponent()
    let prefix = ".\(destination.lastPathComponent)."
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    for name in names where name.hasPrefix(prefix) && name.hasSuffix(".partial") && name != current.lastPathComponent {
      try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
    }
  }

  /// The marker beside a Hub file.
  static func markerPath(of file: URL) -> URL {
    file.deletingLastPathComponent().appendingPathComponent("\(file.lastPathComponent).sha256-ok")
  }

  /// A marker's text: the sha256 the file was checked against (`-` for a file the Hub lists
  /// without one, checked by size alone) and its size.
  static func marker(for file: HubFile) -> String {
    "\(file.sha256 ?? "-") \(file.byteCount)\n"
  }

  /// The file a marker describes, or `nil` for text that is not a marker.
  static func file(fromMarker text: String, path: String) -> HubFile? {
    let fields = text.split(whereSeparator: \.isWhitespace)
    guard fields.count == 2, let size = Int64(fields[1]) else { return nil }
    return HubFile(path: path, byteCount: size, sha256: fields[0] == "-" ? nil : String(fields[0]))
  }
}
