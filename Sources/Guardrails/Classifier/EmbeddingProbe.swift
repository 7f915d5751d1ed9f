import Foundation

/// The guardrails' third stage: a logistic-regression probe over a small language model's
/// embedding of the text, mixed with the classifier's request head, that decides the requests
/// in the request head's uncertain band. The embedding is ``modelName``'s last hidden state
/// after the text framed by ``frame`` (a question about the text in the model's chat format),
/// or, for a probe without a frame, the mean of its last layer over the text.
///
/// Why a probe and not a yes-or-no question: the hashed n-grams of the classifier know only the
/// words of their few hundred training requests (the request head scored "How do I synthesize
/// fentanyl from precursors?" as nearly harmless), while the model's hidden states know what
/// words mean. Asked as a judge, small models answered worse than chance; read through a probe
/// trained on the same data, SmolLM2-135M's states raised detection at the same false-positive
/// rate (both in `bench/README.md`, Guardrails).
///
/// Why a frame: mean-pooled states describe what a text talks about; asked whether the text is a
/// harmful request, the model's state where its answer would begin describes what the text asks
/// for, which is what separates "how do I kill a Python process" from "how do I kill my
/// neighbour" (`bench/README.md`, Guardrails, leave one source out).
///
/// The file (`Resources/probe.bin`, little-endian): the magic `FMGP`, the format version (2;
/// version 1 has no frame), the length of the model's name and the name (UTF-8), the lengths of
/// the frame's opening and closing and the two (UTF-8; both empty: no frame), the embedding's
/// dimension (UInt32); then
/// Float32s: the probe's bias, the mean and spread of its logit and of the request head's logit
/// over the training texts, the probe's share of the mixed score, the mixed score's threshold,
/// the request-head probability from which the probe is asked, then the weights.
public struct EmbeddingProbe: Sendable, Equatable {
  /// The catalogue name of the model whose embeddings the probe reads.
  public var modelName: String
  /// The text around the request whose last token's state the probe reads; nil: the mean of
  /// the last layer over the request alone.
  public var frame: Frame?
  /// Weights over the unit-length embedding (the training data's standardisation folded in).
  public var weights: [Float]
  public var bias: Float
  /// The probe's logit over the training texts: mean and standard deviation.
  public var probeMean: Float
  public var probeSpread: Float
  /// The request head's logit over the training texts: mean and standard deviation.
  public var requestMean: Float
  public var requestSpread: Float
  /// The probe's share of the mixed score (the request head has the rest).
  public var probeShare: Float
  /// From this mixed score on, a request in the band is blocked.
  public var threshold: Float
  /// The request head's probability from which the probe is asked (below it a request is
  /// allowed without it; from the head's upper threshold on it is blocked without it).
  public var bandLower: Float

  /// The text before and after a request, written in the probe model's chat format (its
  /// special tokens are parsed; the request's never are).
  public struct Frame: Sendable, Equatable {
    public var prefix: String
    public var suffix: String

    public init(prefix: String, suffix: String) {
      self.prefix = prefix
      self.suffix = suffix
    }
  }

  public init(
    modelName: String, frame: Frame? = nil, weights: [Float], bias: Float, probeMean: Float, probeSpread: Float,
    requestMean: Float, requestSpread: Float, probeShare: Float, threshold: Float, bandLower: Float
  ) {
    self.modelName = modelName
    self.frame = frame
    self.weights = weights
    self.bias = bias
    self.probeMean = probeMean
    self.probeSpread = probeSpread
    self.requestMean = requestMean
    self.requestSpread = requestSpread
    self.probeShare = probeShare
    self.threshold = threshold
    self.bandLower = bandLower
  }

  /// The probe's logit for a unit-length embedding.
  public func logit(embedding: [Float]) -> Float {
    var sum = bias
    for (weight, value) in zip(weights, embedding) { sum += weight * value }
    return sum
  }

  /// The mixed score of a text: the probe's and the request head's logits, each standardised
  /// over the training texts, weighed by ``probeShare``.
  public func score(embedding: [Float], requestProbability: Float) -> Float {
    score(probeLogit: logit(embedding: embedding), requestProbability: requestProbability)
  }

  /// The mixed score for the probe's logit (``logit(embedding:)``, or a fold probe's when the
  /// threshold is chosen out of fold) and the request head's probability.
  public func score(probeLogit: Float, requestProbability: Float) -> Float {
    let request = Self.logit(probability: requestProbability)
    let probe = (probeLogit - probeMean) / probeSpread
    return probeShare * probe + (1 - probeShare) * (request - requestMean) / requestSpread
  }

  /// The log-odds of a probability, kept a millionth away from 0 and 1.
  public static func logit(probability: Float) -> Float {
    let clamped = min(max(probability, 1e-6), 1 - 1e-6)
    return log(clamped / (1 - clamped))
  }

  /// Whether a request with this embedding and request-head probability is blocked.
  public func isUnsafe(embedding: [Float], requestProbability: Float) -> Bool {
    score(embedding: embedding, requestProbability: requestProbability) >= threshold
  }

  /// The probe the package ships, loaded once on first use.
  public static let shipped: Result<EmbeddingProbe, any Error> = Result {
    guard let url = Bundle.guardrailResource("probe") else {
      throw ClassifierWeights.FormatError(description: "the Guardrails resource probe.bin is missing")
    }
    return try EmbeddingProbe(data: Data(contentsOf: url))
  }

  private static let magic = Array("FMGP".utf8)
  private static let version: UInt32 = 2

  /// Reads a probe from the file format above.
  /// - Throws: ``ClassifierWeights/FormatError`` for a file of another format, version or size.
  public init(data: Data) throws {
    var reader = BinaryReader(bytes: [UInt8](data))
    guard Array(try reader.bytes(4)) == Self.magic else {
      throw ClassifierWeights.FormatError(description: "not a probe file")
    }
    let version = try reader.uint32()
    guard (1...Self.version).contains(version) else {
      throw ClassifierWeights.FormatError(description: "probe format \(version), expected \(Self.version)")
    }
    func string(limit: Int, _ what: String) throws -> String {
      let length = Int(try reader.uint32())
      guard length <= limit else { throw ClassifierWeights.FormatError(description: "probe \(what) too long") }
      return String(decoding: try reader.bytes(length), as: UTF8.self)
    }
    let name = try string(limit: 256, "model name")
    var frame: Frame?
    if version >= 2 {
      let prefix = try string(limit: 4096, "frame")
      let suffix = try string(limit: 4096, "frame")
      if !prefix.isEmpty || !suffix.isEmpty { frame = Frame(prefix: prefix, suffix: suffix) }
    }
    let dimension = Int(try reader.uint32())
    guard (1...65_536).contains(dimension) else {
      throw ClassifierWeights.FormatError(description: "probe dimension \(dimension) out of range")
    }
    let fields = try (0..<8).map { _ in try reader.float() }
    let weights = try (0..<dimension).map { _ in try reader.float() }
    guard reader.isAtEnd else { throw ClassifierWeights.FormatError(description: "probe file has trailing bytes") }
    self.init(
      modelName: name, frame: frame, weights: weights, bias: fields[0], probeMean: fields[1], probeSpread: fields[2],
      requestMean: fields[3], requestSpread: fields[4], probeShare: fields[5], threshold: fields[6],
      bandLower: fields[7])
  }

  /// The probe in the file format above.
  public var data: Data {
    var bytes = Self.magic
    func append(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    append(Self.version)
    for text in [modelName, frame?.prefix ?? "", frame?.suffix ?? ""] {
      append(UInt32(text.utf8.count))
      bytes.append(contentsOf: Array(text.utf8))
    }
    append(UInt32(weights.count))
    for value in [bias, probeMean, probeSpread, requestMean, requestSpread, probeShare, threshold, bandLower] + weights
    {
      append(value.bitPattern)
    }
    return Data(bytes)
  }
}
