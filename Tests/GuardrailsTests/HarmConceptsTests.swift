import Testing

@testable import Guardrails

@Suite struct HarmConceptsTests {
  @Test(arguments: [
    ("bomb", "weapon"), ("bombs", "weapon"), ("grenades", "weapon"), ("poisoning", "killing"),
    ("counterfeit", "fraud"), ("hacking", "cyber"), ("suicide", "selfharm"), ("prevent", "protective"),
  ])
  func wordsAndTheirStemsHaveTheirClass(_ word: String, _ concept: String) {
    #expect(HarmConcepts.concept(of: word) == concept)
  }

  @Test(arguments: ["cake", "process", "is", "bus"])
  func otherWordsHaveNone(_ word: String) {
    #expect(HarmConcepts.concept(of: word) == nil)
  }

  @Test func requestsAreFramedByTheirOpeningPairs() {
    #expect(HarmConcepts.isRequestFraming("to", after: "how"))
    #expect(HarmConcepts.isRequestFraming("me", after: "help"))
    #expect(!HarmConcepts.isRequestFraming("to", after: "went"))
    #expect(!HarmConcepts.isRequestFraming("how", after: nil))
  }

  /// Two words of one class share the class's features, so what the trainer learns from one
  /// carries to the other; a framed request adds the framing features.
  @Test func theHasherAddsClassAndFramingFeatures() {
    let hasher = FeatureHasher(bucketBits: 17)
    let grenade = Set(hasher.buckets(of: ["grenade"]))
    let detonator = Set(hasher.buckets(of: ["detonator"]))
    let cake = Set(hasher.buckets(of: ["cake"]))
    #expect(grenade.intersection(detonator).count >= 3)
    #expect(grenade.intersection(cake).count < grenade.intersection(detonator).count)
    let plain = Set(hasher.buckets(of: ["a", "grenade"]))
    let framed = Set(hasher.buckets(of: ["how", "to", "grenade"]))
    #expect(framed.subtracting(hasher.buckets(of: ["how", "to"])).subtracting(plain).count >= 2)
  }
}
