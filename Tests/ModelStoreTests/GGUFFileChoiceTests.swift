import Foundation
import ModelStore
import Testing

@testable import ModelStore

/// Files listed as the Hub lists them; sizes and hashes do not matter to the choice.
private func listing(_ paths: [String]) -> [HubFile] {
  paths.map { HubFile(path: $0, byteCount: 1, sha256: nil) }
}

private func choice(_ text: String, _ paths: [String]) throws -> [String] {
  let reference = try #require(try HubReference.parse(text))
  return try GGUFFileChoice.files(for: reference, in: listing(paths)).map(\.path)
}

private let repository = [
  "README.md", "model-IQ2_XXS.gguf", "model-Q2_K.gguf", "model-Q8_0.gguf", "model-Q4_K_M.gguf", "model-f16.gguf",
  "mmproj-model-Q4_K_M.gguf",
]

@Suite struct GGUFFileChoiceTests {
  @Test func withoutAQuantQ4KMIsChosenAsLlamaCppChoosesIt() throws {
    #expect(try choice("hf:o/r", repository) == ["model-Q4_K_M.gguf"])
  }

  @Test func withoutQ4KMQ8_0ComesNextThenTheFirstModelFile() throws {
    #expect(try choice("hf:o/r", ["model-Q2_K.gguf", "model-Q8_0.gguf"]) == ["model-Q8_0.gguf"])
    #expect(try choice("hf:o/r", ["mmproj-f16.gguf", "model-Q2_K.gguf", "model-F16.gguf"]) == ["model-Q2_K.gguf"])
  }

  @Test(arguments: ["q2_k", "Q2_K", "q2_K"])
  func theQuantMatchesInAnyCase(quant: String) throws {
    #expect(try choice("hf:o/r:\(quant)", repository) == ["model-Q2_K.gguf"])
  }

  @Test func aQuantMatchesOnlyWhenAFullStopOrDashFollows() throws {
    // "Q4_K" is in "Q4_K_M" too, but llama.cpp's pattern needs `.` or `-` after it.
    #expect(try choice("hf:o/r:Q4_K", ["m-Q4_K_M.gguf", "m-Q4_K.gguf"]) == ["m-Q4_K.gguf"])
  }

  @Test func projectorsAndOtherCompanionFilesAreNeverChosen() throws {
    let companions = ["mmproj-Q4_K_M.gguf", "m-Q4_K_M.imatrix.gguf", "mtp-m-Q4_K_M.gguf"]
    #expect(throws: ModelStoreError.self) { try choice("hf:o/r", companions) }
    #expect(try choice("hf:o/r:Q4_K_M", companions + ["m-Q4_K_M.gguf"]) == ["m-Q4_K_M.gguf"])
  }

  @Test func aSplitModelBringsAllItsPartsInOrder() throws {
    let files = [
      "Q8_0/m-Q8_0-00002-of-00003.gguf", "Q8_0/m-Q8_0-00001-of-00003.gguf", "Q8_0/m-Q8_0-00003-of-00003.gguf",
      "m-Q4_K_M.gguf",
    ]
    #expect(
      try choice("hf:o/r:q8_0", files) == [
        "Q8_0/m-Q8_0-00001-of-00003.gguf", "Q8_0/m-Q8_0-00002-of-00003.gguf", "Q8_0/m-Q8_0-00003-of-00003.gguf",
      ])
  }

  @Test func aSplitModelWithAPartMissingIsAnError() {
    #expect {
      try choice("hf:o/r", ["m-Q4_K_M-00001-of-00002.gguf"])
    } throws: { error in
      (error as? ModelStoreError)?.code == .noMatchingFile
        && (error as? ModelStoreError)?.message.contains("part 1 of 2, but only 1 parts") == true
    }
  }

  @Test func noMatchingQuantNamesTheFilesThereAre() {
    #expect {
      try choice("hf:o/r:Q5_K_S", repository)
    } throws: { error in
      (error as? ModelStoreError)
        == ModelStoreError(
          .noMatchingFile,
          "no GGUF file in o/r matches quant Q5_K_S (available: model-IQ2_XXS.gguf, model-Q2_K.gguf, "
            + "model-Q8_0.gguf, model-Q4_K_M.gguf, model-f16.gguf)",
          modelName: "hf:o/r:Q5_K_S")
    }
  }

  @Test(arguments: [
    ("m-Q4_K_M.gguf", "m-Q4_K_M", "Q4_K_M", 1, 1),
    ("Qwen2.5-0.5B-Instruct-q8_0-00002-of-00004.gguf", "Qwen2.5-0.5B-Instruct-q8_0", "Q8_0", 2, 4),
    ("dir.v2/model.gguf", "dir.v2/model", "", 1, 1),
    ("model.BF16.gguf", "model.BF16", "BF16", 1, 1),
  ])
  func fileNamesAreReadAsLlamaCppReadsThem(path: String, prefix: String, tag: String, index: Int, count: Int) {
    let name = GGUFFileName(path)
    #expect(name.prefix == prefix && name.tag == tag && name.index == index && name.count == count)
  }
}
