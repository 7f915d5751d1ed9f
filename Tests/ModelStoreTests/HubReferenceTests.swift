import ModelStore
import Testing

@Suite struct HubReferenceTests {
  @Test(
    arguments: [
      ("hf:Qwen/Qwen2.5-0.5B-Instruct-GGUF", "Qwen", "Qwen2.5-0.5B-Instruct-GGUF", "main", nil),
      ("hf:bartowski/SmolLM2-135M-Instruct-GGUF:q4_k_m", "bartowski", "SmolLM2-135M-Instruct-GGUF", "main", "q4_k_m"),
      ("hf:unsloth/gemma-3-270m-it-GGUF@v1.0:IQ2_XXS", "unsloth", "gemma-3-270m-it-GGUF", "v1.0", "IQ2_XXS"),
    ] as [(String, String, String, String, String?)])
  func readsTheReferenceForm(text: String, owner: String, repository: String, revision: String, quant: String?) throws {
    let reference = try #require(try HubReference.parse(text))
    #expect(reference == HubReference(owner: owner, repository: repository, revision: revision, quant: quant))
    #expect(reference.description == text)
  }

  @Test(arguments: ["smollm2-135m", "./model.gguf", "Qwen/Qwen2.5-GGUF", "/models/x.gguf"])
  func otherNamesAreNotReferences(text: String) throws {
    #expect(try HubReference.parse(text) == nil)
  }

  @Test(arguments: [
    "hf:", "hf:Qwen", "hf:Qwen/", "hf:/repo", "hf:a/b/c", "hf:a/b:", "hf:a/b:Q4:K", "hf:../b", "hf:a/..",
    "hf:a/b@", "hf:a/b@../x", "hf:a/b:Q4.K",
  ])
  func malformedReferencesAreRejected(text: String) {
    #expect {
      try HubReference.parse(text)
    } throws: { error in
      (error as? ModelStoreError)?.code == .unknownModel
        && (error as? ModelStoreError)?.message.contains("hf:OWNER/REPO[@REVISION][:QUANT]") == true
    }
  }
}
