/// One file of a Hub repository, as its file list (or the store's copy of it) describes it.
public struct HubFile: Sendable, Hashable {
  /// The path inside the repository, such as `Qwen2.5-0.5B-Instruct-Q4_K_M.gguf` or
  /// `Q8_0/model-Q8_0-00001-of-00002.gguf`.
  public let path: String
  /// The size in bytes.
  public let byteCount: Int64
  /// The sha256 of the contents, lowercase hex: the Git LFS object id, which the Hub gives for
  /// every file stored with LFS (all GGUF files in practice); `nil` for a file kept in Git itself.
  public let sha256: String?

  /// Creates a file description.
  public init(path: String, byteCount: Int64, sha256: String?) {
    self.path = path
    self.byteCount = byteCount
    self.sha256 = sha256
  }

  /// The last component of the path.
  public var fileName: String { path.split(separator: "/").last.map(String.init) ?? path }

  /// What the name says about the file: its quantisation tag and split numbering.
  var name: GGUFFileName { GGUFFileName(path) }
}
