import Foundation

/// The trained weights of ``ContentClassifier``, as `guardrails-train` writes them and the
/// package ships them (`Resources/classifier.bin`).
///
/// The file, little-endian: the magic `FMGC`, the format version (2), the bucket bits and the
/// head count (UInt32 each); then per head — one per category in ``GuardrailCategory/scored``
/// order, then the request head (``requestHead``) — its bias, weight scale and three
/// probability thresholds (lower, decision, upper; Float32 each); then the weights, one Int8 per
/// bucket and head (bucket-major), each worth `scale` times its value.
public struct ClassifierWeights: Sendable, Equatable {
  /// One category's model and thresholds.
  public struct Head: Sendable, Equatable {
    public var bias: Float
    public var scale: Float
    /// Below this probability the text is allowed without asking the judge.
    public var lower: Float
    /// Without a judge, the text is blocked from this probability on.
    public var decision: Float
    /// From this probability on the text is blocked without asking the judge.
    public var upper: Float

    public init(bias: Float, scale: Float, lower: Float, decision: Float, upper: Float) {
      self.bias = bias
      self.scale = scale
      self.lower = lower
      self.decision = decision
      self.upper = upper
    }
  }

  public var bucketBits: Int
  /// The category heads in ``GuardrailCategory/scored`` order, then the request head.
  public var heads: [Head]

  /// The head count of a weights file: one per scored category and the request head.
  public static let headCount = GuardrailCategory.scored.count + 1

  /// The index of the request head: whether a text is a clearly harmful request of any
  /// category.
  ///
  /// It is trained on the harmful requests of all categories together, so the few examples each
  /// category has pool into one decision; which category a flagged text is reported under comes
  /// from the category heads.
  public static let requestHead = GuardrailCategory.scored.count
  /// `bucketCount × heads.count` quantised weights, bucket-major.
  public var weights: [Int8]

  public init(bucketBits: Int, heads: [Head], weights: [Int8]) {
    self.bucketBits = bucketBits
    self.heads = heads
    self.weights = weights
  }

  private static let magic = Array("FMGC".utf8)
  private static let version: UInt32 = 2

  /// A file's contents in the format above.
  public struct FormatError: Error, CustomStringConvertible {
    public let description: String

    public init(description: String) {
      self.description = description
    }
  }

  /// Reads weights from the file format above.
  /// - Throws: ``FormatError`` for a file of another format, version or size.
  public init(data: Data) throws {
    var reader = BinaryReader(bytes: [UInt8](data))
    guard Array(try reader.bytes(4)) == Self.magic else {
      throw FormatError(description: "not a classifier weights file")
    }
    let version = try reader.uint32()
    guard version == Self.version else {
      throw FormatError(description: "weights format \(version), expected \(Self.version)")
    }
    let bits = Int(try reader.uint32())
    let count = Int(try reader.uint32())
    guard (8...24).contains(bits), count == Self.headCount else {
      throw FormatError(description: "weights for \(count) heads over 2^\(bits) buckets do not fit this build")
    }
    var heads: [Head] = []
    for _ in 0..<count {
      heads.append(
        Head(
          bias: try reader.float(), scale: try reader.float(), lower: try reader.float(), decision: try reader.float(),
          upper: try reader.float()))
    }
    let weights = try reader.bytes((1 << bits) * count).map { Int8(bitPattern: $0) }
    guard reader.isAtEnd else { throw FormatError(description: "weights file has trailing bytes") }
    self.init(bucketBits: bits, heads: heads, weights: weights)
  }

  /// The weights in the file format above.
  public var data: Data {
    var bytes = Self.magic
    func append(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    append(Self.version)
    append(UInt32(bucketBits))
    append(UInt32(heads.count))
    for head in heads {
      for value in [head.bias, head.scale, head.lower, head.decision, head.upper] { append(value.bitPattern) }
    }
    bytes.append(contentsOf: weights.map { UInt8(bitPattern: $0) })
    return Data(bytes)
  }
}
