/// The features the classifier reads from normalised words, hashed into a fixed number of
/// buckets: each word, each pair of neighbouring words, and the character 3- to 5-grams of each
/// word with its boundaries marked (`<kill>` gives `<ki`, `kil`, …), which carry misspellings,
/// inflections and words the training data never had; then each word's class in
/// ``HarmConcepts`` (three features per class, so a class weighs more than any one of the many
/// character n-grams of its words); a harm's class aimed at a person within
/// ``targetReach`` words ("strangle my Tinder date", not "kill a Python process") adds a
/// feature for the pairing; and, when the text frames a request ("how do I", "help me"), one
/// feature for the framing, one for each class the request names and one for each pairing.
///
/// The hash is 32-bit FNV-1a over the feature's UTF-8 bytes behind a one-byte kind tag; the
/// training program (`guardrails-train`) and the checks use this same type, so the buckets of
/// the shipped weights are the ones the checks look up.
public struct FeatureHasher: Sendable {
  /// log2 of the bucket count.
  public let bucketBits: Int

  public init(bucketBits: Int) {
    self.bucketBits = bucketBits
  }

  public var bucketCount: Int { 1 << bucketBits }

  /// How many words after a harm's word a person it is aimed at may come.
  public static let targetReach = 4

  /// The distinct buckets of `words`' features, sorted.
  public func buckets<Words: Collection<String>>(of words: Words) -> [Int] {
    var result: [Int] = []
    result.reserveCapacity(words.count * 16)
    let mask = UInt32(bucketCount - 1)
    var previous: String?
    var framed = false
    var concepts: [String] = []
    var pairings: [String] = []
    /// The harm classes of the last ``targetReach`` words and where they stood.
    var recentHarms: [(String, Int)] = []
    var position = 0
    for word in words {
      position += 1
      recentHarms.removeAll { position - $0.1 > Self.targetReach }
      result.append(Int(Self.hash(tag: 1, word.utf8) & mask))
      if HarmConcepts.isRequestFraming(word, after: previous) { framed = true }
      if let concept = HarmConcepts.concept(of: word) {
        for tag: UInt8 in [6, 16, 17] { result.append(Int(Self.hash(tag: tag, concept.utf8) & mask)) }
        if !concepts.contains(concept) { concepts.append(concept) }
        if HarmConcepts.targetClasses.contains(concept) {
          for (harm, _) in recentHarms {
            let pairing = harm + ">" + concept
            if !pairings.contains(pairing) { pairings.append(pairing) }
          }
        }
        if HarmConcepts.harmClasses.contains(concept) { recentHarms.append((concept, position)) }
      }
      if let previous {
        var hash = Self.fold(Self.fold(Self.offset, 2), previous.utf8)
        hash = Self.fold(hash, 0x20)
        result.append(Int(Self.fold(hash, word.utf8) & mask))
      }
      previous = word
      let bytes = [0x3C] + Array(word.utf8) + [0x3E]  // "<" word ">"
      for length in 3...5 where bytes.count >= length {
        for start in 0...(bytes.count - length) {
          let gram = bytes[start..<(start + length)]
          if length == bytes.count && length > 3 { continue }  // the whole word is already a feature
          result.append(Int(Self.hash(tag: UInt8(length), gram) & mask))
        }
      }
    }
    for pairing in pairings {
      for tag: UInt8 in [8, 18] { result.append(Int(Self.hash(tag: tag, pairing.utf8) & mask)) }
    }
    if framed {
      result.append(Int(Self.hash(tag: 7, "frame".utf8) & mask))
      for concept in concepts { result.append(Int(Self.hash(tag: 7, concept.utf8) & mask)) }
      for pairing in pairings { result.append(Int(Self.hash(tag: 9, pairing.utf8) & mask)) }
    }
    result.sort()
    var unique = 0
    for index in result.indices where index == 0 || result[index] != result[index - 1] {
      result[unique] = result[index]
      unique += 1
    }
    result.removeLast(result.count - unique)
    return result
  }

  private static let offset: UInt32 = 2_166_136_261
  private static let prime: UInt32 = 16_777_619

  private static func hash<Bytes: Sequence<UInt8>>(tag: UInt8, _ bytes: Bytes) -> UInt32 {
    fold(fold(offset, tag), bytes)
  }

  private static func fold(_ hash: UInt32, _ byte: UInt8) -> UInt32 {
    (hash ^ UInt32(byte)) &* prime
  }

  private static func fold<Bytes: Sequence<UInt8>>(_ hash: UInt32, _ bytes: Bytes) -> UInt32 {
    var hash = hash
    for byte in bytes { hash = fold(hash, byte) }
    return hash
  }
}
