import FMTestSupport
import Foundation
import Testing

@testable import ModelStore

/// The sha256 a pull checks its download against, computed as the file grows.
@Suite struct HubDigestTests {
  @Test(arguments: [
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    (
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ),
  ])
  func sha256OfTheStandardsExamples(message: String, digest: String) {
    var hash = SHA256()
    hash.update(Data(message.utf8))
    #expect(hash.hexDigest() == digest)
  }

  @Test func sha256FedInUnevenPiecesMatchesSha256sum() throws {
    // Lengths around the block and padding boundaries, fed in pieces that straddle blocks.
    let data = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ ($0 >> 9)) })
    for length in [55, 56, 63, 64, 65, 119, 120, 128, 200_000] {
      let message = data.prefix(length)
      var hash = SHA256()
      let pieces = [1, 62, 3, 64, 129, 70_000]
      var offset = 0
      var turn = 0
      while offset < length {
        let end = min(length, offset + pieces[turn % pieces.count])
        hash.update(message.subdata(in: offset..<end))
        offset = end
        turn += 1
      }
      #expect(hash.hexDigest() == (try LocalHubServer.sha256(of: message)), "\(length) bytes")
    }
  }

  @Test func aGrowingFileIsHashedFromItsFirstByteAndAfreshAfterARestart() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.url.appendingPathComponent("file")
    let old = Data(repeating: 1, count: 300_000)
    let new = Data((0..<5_000_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
    try old.write(to: url)
    let digest = try GrowingFileDigest(of: url)
    digest.fileGrew(to: Int64(old.count))
    digest.restart()
    let handle = try FileHandle(forWritingTo: url)
    try handle.truncate(atOffset: 0)
    for start in stride(from: 0, to: new.count, by: 1_000_000) {
      try handle.write(contentsOf: new.subdata(in: start..<min(new.count, start + 1_000_000)))
      digest.fileGrew(to: Int64(min(new.count, start + 1_000_000)))
    }
    try handle.close()

    #expect(try await digest.finish() == (try LocalHubServer.sha256(of: new)))
  }
}
