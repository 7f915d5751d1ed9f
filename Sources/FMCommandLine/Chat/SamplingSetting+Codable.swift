extension SamplingSetting: Codable {
  /// Parses the words after `/set sampling` (or `--sampling`, with `--seed` given apart):
  /// `greedy`, `system`, `top-k 10`, `top-k 10 seed 42`, `top-p 0.9 seed 7`.
  ///
  /// - Throws: `UsageError` with a one-line hint.
  init(words: [String], seed: UInt64? = nil) throws {
    var words = words
    var seed = seed
    if words.count >= 2, words[words.count - 2].lowercased() == "seed" {
      guard let value = UInt64(words[words.count - 1]) else {
        throw UsageError("seed needs a non-negative integer, not '\(words[words.count - 1])'")
      }
      seed = value
      words.removeLast(2)
    }
    if seed != nil, words.count == 1, ["greedy", "system"].contains(words[0].lowercased()) {
      throw UsageError("a seed only applies to top-k and top-p sampling")
    }
    try self.init(parsing: words.joined(separator: " "), seed: seed)
  }

  /// Saved as the text `/set sampling` accepts, such as `top-k 10 seed 42`.
  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }

  init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    do {
      try self.init(words: text.split(separator: " ").map(String.init))
    } catch let error as UsageError {
      throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message))
    }
  }
}
