import Foundation
import Guardrails
import InferenceEngine

/// The probe model's embeddings of the safety texts, kept in a file between runs: embedding
/// the texts is nearly all of a run's time on a CPU, training the probe a small part.
///
/// The file is a list of records, each a text's 64-bit FNV-1a hash and its embedding
/// (little-endian floats); a record whose length does not fit the model's is not read.
struct EmbeddingCache {
  let file: URL
  let embedder: LlamaEmbedder
  private var known: [UInt64: [Float]] = [:]

  /// The probe's frame for these embeddings (nil: mean-pooled).
  var frame: EmbeddingProbe.Frame? {
    guard case .framed(let prefix, let suffix) = embedder.reading else { return nil }
    return EmbeddingProbe.Frame(prefix: prefix, suffix: suffix)
  }

  init(file: URL, embedder: LlamaEmbedder) {
    self.file = file
    self.embedder = embedder
    guard let data = try? Data(contentsOf: file) else { return }
    var reader = BinaryReader(bytes: [UInt8](data))
    while reader.remaining >= 8 + 4 * embedder.dimension, let hash = try? reader.uint64(),
      let values = try? (0..<embedder.dimension).map({ _ in try reader.float() })
    {
      known[hash] = values
    }
  }

  /// The embeddings of `texts`, computing (and appending to the file) those it lacks, with
  /// progress on standard error.
  mutating func embeddings(of texts: [String]) throws -> [[Float]] {
    let missing = Set(texts.map(Self.hash)).subtracting(known.keys).count
    var added = Data()
    var done = 0
    var result: [[Float]] = []
    for text in texts {
      let hash = Self.hash(text)
      if let values = known[hash] {
        result.append(values)
        continue
      }
      let values = try embedder.embedding(of: text)
      known[hash] = values
      result.append(values)
      withUnsafeBytes(of: hash.littleEndian) { added.append(contentsOf: $0) }
      for value in values { withUnsafeBytes(of: value.bitPattern.littleEndian) { added.append(contentsOf: $0) } }
      done += 1
      if done % 100 == 0 || done == missing {
        FileHandle.standardError.write(Data("embedded \(done) of \(missing) texts\n".utf8))
        try append(added)
        added.removeAll()
      }
    }
    try append(added)
    return result
  }

  private func append(_ data: Data) throws {
    guard !data.isEmpty else { return }
    if !FileManager.default.fileExists(atPath: file.path) {
      try Data().write(to: file)
    }
    let handle = try FileHandle(forWritingTo: file)
    defer { try? handle.close() }
    try handle.seekToEnd()
    try handle.write(contentsOf: data)
  }

  static func hash(_ text: String) -> UInt64 {
    text.utf8.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
  }
}
