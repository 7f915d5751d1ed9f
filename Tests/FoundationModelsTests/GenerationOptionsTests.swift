import FoundationModels
import Testing

@Suite struct GenerationOptionsTests {
  @Test func defaultsAreNil() {
    let options = GenerationOptions()
    #expect(options.samplingMode == nil)
    #expect(options.toolCallingMode == nil)
    #expect(options.temperature == nil)
    #expect(options.maximumResponseTokens == nil)
  }

  @Test func equality() {
    #expect(GenerationOptions(samplingMode: .greedy) == GenerationOptions(samplingMode: .greedy))
    #expect(GenerationOptions(samplingMode: .greedy) != GenerationOptions())
    #expect(GenerationOptions.SamplingMode.random(top: 5) == .random(top: 5, seed: nil))
    #expect(GenerationOptions.SamplingMode.random(top: 5) != .random(top: 6))
    #expect(GenerationOptions.SamplingMode.random(top: 5, seed: 1) != .random(top: 5, seed: 2))
    #expect(GenerationOptions.SamplingMode.random(probabilityThreshold: 0.9) != .random(top: 1))
    #expect(
      GenerationOptions.SamplingMode.random(probabilityThreshold: 0.9, seed: 3)
        == .random(probabilityThreshold: 0.9, seed: 3))
    #expect(GenerationOptions(temperature: 0.2) != GenerationOptions(temperature: 0.3))
    #expect(GenerationOptions(maximumResponseTokens: 10) != GenerationOptions(maximumResponseTokens: 11))
  }

  /// The 26 name still compiles (with a deprecation warning, as with Apple's 27 SDK) and shares
  /// the 27 name's storage.
  @Test func deprecatedSamplingNameIsTheSameStorage() {
    var options = GenerationOptions(samplingMode: .greedy, temperature: 0.5)
    #expect(options == GenerationOptions(sampling: .greedy, temperature: 0.5))
    options.samplingMode = .random(top: 3)
    #expect(options.sampling == .random(top: 3))
  }
}
