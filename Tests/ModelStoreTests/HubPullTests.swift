import FMTestSupport
import Foundation
import ModelStore
import Testing

/// `count` bytes that differ from their neighbours, so a byte out of place changes the hash.
private func contents(_ count: Int, seed: UInt8 = 0) -> Data {
  Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ ($0 >> 8) &+ Int(seed)) })
}

private let repositoryID = "owner/tiny-GGUF"
private let q4 = contents(300_000, seed: 1)
private let q8 = contents(500_000, seed: 2)
private let tinyRepository: [String: Data] = [
  "README.md": Data("# tiny\n".utf8),
  "tiny-Q8_0.gguf": q8,
  "tiny-Q4_K_M.gguf": q4,
  "mmproj-tiny-Q4_K_M.gguf": contents(1000, seed: 3),
]

/// A fresh store pointed at `server`, and its folder.
private struct HubStore {
  let directory: TemporaryDirectory
  let store: ModelStore

  init(_ server: LocalHubServer, token: String? = nil, offline: Bool = false) throws {
    directory = try TemporaryDirectory()
    store = ModelStore(
      directory: directory.url, source: LocalPartSource([:]),
      hub: HubSettings(endpoint: server.baseURL.absoluteString, token: token, offline: offline))
  }

  /// Every file under the store's folder, relative to it, hidden ones (but no lock files) included.
  func files() -> [String] {
    let walker = FileManager.default.enumerator(atPath: directory.url.path)
    var found: [String] = []
    while let path = walker?.nextObject() as? String {
      var isDirectory: ObjCBool = false
      let exists = FileManager.default.fileExists(
        atPath: directory.url.appendingPathComponent(path).path, isDirectory: &isDirectory)
      if exists, !isDirectory.boolValue, !path.hasSuffix(".lock") { found.append(path) }
    }
    return found.sorted()
  }
}

private func reference(_ text: String) throws -> HubReference {
  try #require(try HubReference.parse(text))
}

private func error(_ body: () async throws -> Void) async -> ModelStoreError? {
  do {
    try await body()
    return nil
  } catch {
    return error as? ModelStoreError
  }
}

@Suite struct HubPullTests {
  @Test func pullChoosesQ4KMFollowsTheRedirectSendsTheTokenAndChecksTheHash() async throws {
    let server = try LocalHubServer(
      repositories: [repositoryID: tinyRepository],
      behaviour: .init(requiredToken: "hf_secret", redirectsFiles: true))
    defer { server.stop() }
    let hub = try HubStore(server, token: "hf_secret")
    defer { hub.directory.remove() }

    let path = try await hub.store.pull(try reference("hf:\(repositoryID)"))

    #expect(try Data(contentsOf: path) == q4)
    let folder = "huggingface/owner/tiny-GGUF/main"
    #expect(path.path == hub.directory.url.appendingPathComponent("\(folder)/tiny-Q4_K_M.gguf").path)
    #expect(hub.files() == ["\(folder)/tiny-Q4_K_M.gguf", "\(folder)/tiny-Q4_K_M.gguf.sha256-ok"])
    #expect(
      server.requests.map(\.target) == [
        "/api/models/owner/tiny-GGUF/tree/main?recursive=true", "/owner/tiny-GGUF/resolve/main/tiny-Q4_K_M.gguf",
        "/cdn/owner/tiny-GGUF/tiny-Q4_K_M.gguf",
      ])
    #expect(server.requests.dropLast().allSatisfy { $0.authorization == "Bearer hf_secret" })
    #expect(try hub.store.resolve("hf:\(repositoryID)").path == path)
    #expect(try hub.store.resolve("hf:\(repositoryID):q4_k_m").path == path)
  }

  @Test func aDroppedConnectionResumesFromTheBytesReceived() async throws {
    let server = try LocalHubServer(
      repositories: [repositoryID: tinyRepository], behaviour: .init(dropFirstBodyAfter: 123_456))
    defer { server.stop() }
    let hub = try HubStore(server)
    defer { hub.directory.remove() }
    let log = PullProgressLog()

    let path = try await hub.store.pull(try reference("hf:\(repositoryID):Q8_0")) { log.record($0) }

    #expect(try Data(contentsOf: path) == q8)
    // The second request asks only for what had not arrived.
    #expect(server.fileRanges == [nil, "bytes=123456-"])
    #expect(log.all.contains(.resuming(file: "tiny-Q8_0.gguf", fromByte: 123_456)))
    #expect(log.all.suffix(2) == [.verifying, .finished(path: path.path)])
  }

  @Test func aPartialFileLeftByAKilledPullIsResumed() async throws {
    let server = try LocalHubServer(repositories: [repositoryID: tinyRepository])
    defer { server.stop() }
    let hub = try HubStore(server)
    defer { hub.directory.remove() }
    let reference = try reference("hf:\(repositoryID)")
    let folder = hub.directory.url.appendingPathComponent("huggingface/owner/tiny-GGUF/main")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let sha256 = try LocalHubServer.sha256(of: q4)
    try q4.prefix(100_000).write(to: folder.appendingPathComponent(".tiny-Q4_K_M.gguf.\(sha256.prefix(16)).partial"))

    let path = try await hub.store.pull(reference)

    #expect(try Data(contentsOf: path) == q4)
    #expect(server.fileRanges == ["bytes=100000-"])
  }

  @Test func aWrongHashIsAnErrorAndLeavesNoModelFile() async throws {
    let wrong = String(repeating: "ab", count: 32)
    let server = try LocalHubServer(
      repositories: [repositoryID: tinyRepository], listedSHA256: ["tiny-Q4_K_M.gguf": wrong])
    defer { server.stop() }
    let hub = try HubStore(server)
    defer { hub.directory.remove() }

    let failure = await error { try await hub.store.pull(try reference("hf:\(repositoryID)")) }

    #expect(failure?.code == .checksumMismatch)
    #expect(failure?.message.contains("the Hub lists \(wrong); the download was removed") == true)
    #expect(failure?.modelName == "hf:\(repositoryID)")
    #expect(hub.files() == [])
    #expect(throws: ModelStoreError.self) { try hub.store.resolve("hf:\(repositoryID)") }
  }

  @Test func anUnknownRepositoryIsA404Error() async throws {
    let server = try LocalHubServer(repositories: [repositoryID: tinyRepository])
    defer { server.stop() }
    let hub = try HubStore(server)
    defer { hub.directory.remove() }

    let failure = await error { try await hub.store.pull(try reference("hf:owner/missing")) }

    #expect(failure?.code == .repositoryNotFound)
    #expect(
      failure?.message == "\(server.baseURL.absoluteString) has no repository owner/missing at revision main (HTTP 404)"
    )
  }

  @Test(arguments: [(nil, 401), ("hf_wrong", 403)] as [(String?, Int)])
  func aGatedRepositorySaysToSetHFTokenAndAcceptTheLicence(token: String?, status: Int) async throws {
    let server = try LocalHubServer(
      repositories: [repositoryID: tinyRepository], behaviour: .init(requiredToken: "hf_right"))
    defer { server.stop() }
    let hub = try HubStore(server, token: token)
    defer { hub.directory.remove() }

    let failure = await error { try await hub.store.pull(try reference("hf:\(repositoryID)")) }

    #expect(failure?.code == .accessDenied)
    let message = failure?.message ?? ""
    #expect(message.hasPrefix("\(repositoryID) is gated or private (HTTP \(status) from "))
    #expect(message.contains(token == nil ? "set HF_TOKEN" : "the token in HF_TOKEN may not read it"))
    #expect(message.contains("accept the model's licence at \(server.baseURL.absoluteString)/\(repositoryID)"))
  }

  @Test func noFileMatchingTheQuantListsTheModelFiles() async throws {
    let server = try LocalHubServer(repositories: [repositoryID: tinyRepository])
    defer { server.stop() }
    let hub = try HubStore(server)
    defer { hub.directory.remove() }

    let failure = await error { try await hub.store.pull(try reference("hf:\(repositoryID):Q5_K_M")) }

    #expect(failure?.code == .noMatchingFile)
    #expect(
      failure?.message
        == "no GGUF file in \(repositoryID) matches quant Q5_K_M (available: tiny-Q4_K_M.gguf, tiny-Q8_0.gguf)")
    #expect(server.fileRanges.isEmpty)
  }

  @Test func aSplitModelInAFolderIsPulledWholeWithItsPartsSideBySide() async throws {
    let parts = (1...3).map { contents(70_000 + $0, seed: UInt8($0)) }
    var files = tinyRepository
    for (index, part) in parts.enumerated() { files["Q6_K/tiny-Q6_K-0000\(index + 1)-of-00003.gguf"] = part }
    // A mirror that lists folders without their contents: the folder is listed on its own.
    let server = try LocalHubServer(repositories: [repositoryID: files], behaviour: .init(listsRecursively: false))
    defer { server.stop() }
    let hub = try HubStore(server)
    defer { hub.directory.remove() }

    let path = try await hub.store.pull(try reference("hf:\(repositoryID):q6_k"))

    #expect(path.lastPathComponent == "tiny-Q6_K-00001-of-00003.gguf")
    let folder = path.deletingLastPathComponent()
    for (index, part) in parts.enumerated() {
      #expect(try Data(contentsOf: folder.appendingPathComponent("tiny-Q6_K-0000\(index + 1)-of-00003.gguf")) == part)
    }
    #expect(server.requests.map(\.target).contains("/api/models/owner/tiny-GGUF/tree/main/Q6_K?recursive=true"))
    #expect(try hub.store.resolve("hf:\(repositoryID):Q6_K").path == path)
    let pulled = hub.store.pulledHubModels()
    #expect(pulled.map(\.reference.description) == ["hf:\(repositoryID):Q6_K"])
    #expect(pulled.first?.byteCount == Int64(parts.map(\.count).reduce(0, +)))
    #expect(pulled.first?.files.count == 3)
  }

  @Test func aSlowDownloadReportsBytesRateAndEveryStep() async throws {
    // The server paces the body (600 kB/s, a piece every 50 ms), so the download takes at least
    // half a second however fast the client is; a busy machine only makes it slower. What is
    // checked holds at any speed: reports along the way, the rate no faster than the server
    // sends and no slower than the test's own clock allows.
    let server = try LocalHubServer(
      repositories: [repositoryID: tinyRepository], behaviour: .init(bytesPerSecond: 600_000))
    defer { server.stop() }
    let hub = try HubStore(server)
    defer { hub.directory.remove() }
    let log = PullProgressLog()

    let began = ContinuousClock.now
    try await hub.store.pull(try reference("hf:\(repositoryID)")) { log.record($0) }
    let seconds = (ContinuousClock.now - began) / .seconds(1)

    let downloads = log.all.compactMap { event -> (bytes: Int64, total: Int64, rate: Double)? in
      guard case .downloading("tiny-Q4_K_M.gguf", 1, 1, let bytes, let total, let rate) = event else { return nil }
      return (bytes, total, rate)
    }
    #expect(downloads.contains { $0.bytes > 0 && $0.bytes < 300_000 }, "a report before the last byte")
    #expect(downloads.allSatisfy { $0.total == 300_000 && $0.rate > 0 })
    #expect(zip(downloads, downloads.dropFirst()).allSatisfy { $0.bytes <= $1.bytes })
    #expect(downloads.last?.bytes == 300_000)
    let rate = try #require(downloads.last?.rate)
    #expect(rate >= 300_000 / seconds, "the transfer took no longer than the whole pull")
    #expect(rate < 1_500_000, "the server sends at most about 600 kB/s")
    #expect(log.all.suffix(2).first == .verifying)
  }

  @Test func aServerThatIgnoresTheRangeHasTheFileRestartedAndHashedAfresh() async throws {
    let server = try LocalHubServer(
      repositories: [repositoryID: tinyRepository], behaviour: .init(ignoresRange: true))
    defer { server.stop() }
    let hub = try HubStore(server)
    defer { hub.directory.remove() }
    let folder = hub.directory.url.appendingPathComponent("huggingface/owner/tiny-GGUF/main")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let sha256 = try LocalHubServer.sha256(of: q4)
    // A partial file whose bytes are wrong: the whole file comes again, and only its bytes count.
    try Data(repeating: 7, count: 100_000).write(
      to: folder.appendingPathComponent(".tiny-Q4_K_M.gguf.\(sha256.prefix(16)).partial"))

    let path = try await hub.store.pull(try reference("hf:\(repositoryID)"))

    #expect(try Data(contentsOf: path) == q4)
    #expect(server.fileRanges == ["bytes=100000-"])
  }

  @Test func offlineUsesWhatIsPulledAndNeverTheNetwork() async throws {
    let server = try LocalHubServer(repositories: [repositoryID: tinyRepository])
    defer { server.stop() }
    let online = try HubStore(server)
    defer { online.directory.remove() }
    let offline = ModelStore(
      directory: online.directory.url, source: LocalPartSource([:]),
      hub: HubSettings(endpoint: server.baseURL.absoluteString, offline: true))

    let absent = await error { try await offline.pull(try reference("hf:\(repositoryID)")) }
    #expect(absent?.code == .modelNotDownloaded)
    #expect(absent?.message.contains("HF_HUB_OFFLINE is set, so it is not fetched") == true)
    #expect(server.requests.isEmpty)

    let path = try await online.store.pull(try reference("hf:\(repositoryID)"))
    let requestsOnline = server.requests.count
    let log = PullProgressLog()
    #expect(try await offline.pull(try reference("hf:\(repositoryID):Q4_K_M")) { log.record($0) } == path)
    #expect(log.all == [.alreadyPresent(path: path.path)])
    #expect(server.requests.count == requestsOnline)
  }

  @Test func twoPullsOfOneFileAtOnceDownloadItOnce() async throws {
    let server = try LocalHubServer(
      repositories: [repositoryID: tinyRepository], behaviour: .init(bytesPerSecond: 1_000_000))
    defer { server.stop() }
    let hub = try HubStore(server)
    defer { hub.directory.remove() }
    let reference = try reference("hf:\(repositoryID)")
    let first = PullProgressLog()
    let second = PullProgressLog()

    async let one = hub.store.pull(reference) { first.record($0) }
    async let two = hub.store.pull(reference) { second.record($0) }
    let paths = try await [one, two]

    #expect(paths[0] == paths[1])
    #expect(try Data(contentsOf: paths[0]) == q4)
    #expect(server.fileRanges.count == 1)
    #expect((first.all + second.all).contains(.waitingForOtherPull))
  }

  @Test func aPulledModelIsRemovedWithItsMarkerAndFolders() async throws {
    let server = try LocalHubServer(repositories: [repositoryID: tinyRepository])
    defer { server.stop() }
    let hub = try HubStore(server)
    defer { hub.directory.remove() }
    let path = try await hub.store.pull(try reference("hf:\(repositoryID):Q8_0"))
    try await hub.store.pull(try reference("hf:\(repositoryID)"))
    #expect(
      hub.store.pulledHubModels().map(\.reference.description) == [
        "hf:\(repositoryID):Q4_K_M", "hf:\(repositoryID):Q8_0",
      ])

    #expect(try hub.store.remove("hf:\(repositoryID):q8_0") == [path])

    #expect(hub.store.pulledHubModels().map(\.reference.description) == ["hf:\(repositoryID):Q4_K_M"])
    try hub.store.remove("hf:\(repositoryID)")
    #expect(hub.files() == [])
    #expect(!FileManager.default.fileExists(atPath: hub.directory.url.appendingPathComponent("huggingface/owner").path))
    let again = await error { try hub.store.remove("hf:\(repositoryID)") }
    #expect(again?.code == .modelNotDownloaded)
  }
}
