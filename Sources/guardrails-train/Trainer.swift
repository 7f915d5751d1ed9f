import Foundation
import Guardrails
import SafetyCorpus

/// One-vs-rest logistic regression over hashed n-grams, one head per scored category, trained
/// with AdaGrad in a fixed order; thresholds from five-fold out-of-fold scores.
struct Trainer {
  /// log2 of the bucket count: 2^17 buckets, 655 KB of Int8 weights for five heads.
  static let bucketBits = 17
  static let epochs = 10
  static let learningRate: Float = 0.4
  static let l2: Float = 1e-3
  /// The most windows one long text trains with.
  static let windowsPerText = 4
  /// Each benign text also trains as this many fragments of one to six of its words, so short
  /// inputs ("Be brief.", "Weather in Oslo?") are learnt as the harmless texts they usually are.
  static let fragmentsPerBenignText = 2
  /// Shares of the benign training texts scored at or above each threshold, out of fold: above
  /// `upper` a text is blocked outright, above `decision` blocked when there is no judge,
  /// above `lower` the judge is asked.
  static let upperRate = 0.002
  static let decisionRate = 0.005
  static let lowerRate = 0.06

  struct Sample {
    var buckets: [Int]
    var labels: [Bool?]
  }

  struct Text {
    var windows: [[Int]]
    /// Short runs of a benign text's words (see ``fragmentsPerBenignText``).
    var fragments: [[Int]] = []
    var labels: [Bool?]
    var fold: Int
    var isBenign: Bool
  }

  let texts: [Text]
  let hasher = FeatureHasher(bucketBits: Trainer.bucketBits)
  let categories = GuardrailCategory.scored

  init(examples: [SafetyExample]) {
    let hasher = hasher
    var random = SplitMix64(seed: 0x6672_6167_6d65_6e74)
    texts = examples.map { example in
      let words = GuardrailCascade.classifierWords(example.text)
      let windows = ContentClassifier.windows(of: words).map { hasher.buckets(of: $0) }
      guard case .training(let fold) = example.split else { preconditionFailure("held-out text in training") }
      var text = Text(
        windows: windows, labels: GuardrailCategory.scored.map { example.labels[$0] }, fold: fold,
        isBenign: example.isBenign)
      if example.isBenign, !words.isEmpty {
        for _ in 0..<Self.fragmentsPerBenignText {
          let length = 1 + Int(random.next() % 6)
          let start = Int(random.next() % UInt64(words.count))
          text.fragments.append(hasher.buckets(of: words[start..<min(start + length, words.count)]))
        }
      }
      return text
    }
  }

  /// Trains, chooses thresholds, and returns the quantised weights.
  func train() -> ClassifierWeights {
    var outOfFold = [[Float]](repeating: [], count: texts.count)
    for fold in 0..<5 {
      let model = fit(texts.indices.filter { texts[$0].fold != fold })
      for index in texts.indices where texts[index].fold == fold {
        outOfFold[index] = model.probabilities(texts[index].windows)
      }
      log("fold \(fold) trained")
    }
    let model = fit(Array(texts.indices))
    var heads: [ClassifierWeights.Head] = []
    var quantised = [Int8](repeating: 0, count: model.weights.count)
    for (head, category) in categories.enumerated() {
      let benign = texts.indices.filter { texts[$0].isBenign }.map { outOfFold[$0][head] }
      let positives = texts.indices.filter { texts[$0].labels[head] == true }.map { outOfFold[$0][head] }
      let upper = max(threshold(benign, rate: Self.upperRate), 0.5)
      let decision = min(threshold(benign, rate: Self.decisionRate), upper)
      let lower = min(threshold(benign, rate: Self.lowerRate), decision)
      var largest: Float = 1e-9
      for bucket in 0..<hasher.bucketCount {
        largest = max(largest, abs(model.weights[bucket * categories.count + head]))
      }
      let scale = largest / 127
      for bucket in 0..<hasher.bucketCount {
        let index = bucket * categories.count + head
        quantised[index] = Int8(max(-127, min(127, (model.weights[index] / scale).rounded())))
      }
      heads.append(.init(bias: model.biases[head], scale: scale, lower: lower, decision: decision, upper: upper))
      let caught = { (limit: Float) in
        Double(positives.filter { $0 >= limit }.count) / Double(max(positives.count, 1)) * 100
      }
      log(
        String(
          format: "%@: %d positives; thresholds %.3f / %.3f / %.3f; out-of-fold detection %.1f %% / %.1f %% / %.1f %%",
          category.rawValue, positives.count, lower, decision, upper, caught(lower), caught(decision), caught(upper)))
    }
    return ClassifierWeights(bucketBits: Self.bucketBits, heads: heads, weights: quantised)
  }

  /// The probability from which at most `rate` of `scores` lie at or above it.
  private func threshold(_ scores: [Float], rate: Double) -> Float {
    let sorted = scores.sorted(by: >)
    let allowed = Int((Double(sorted.count) * rate).rounded(.down))
    guard allowed < sorted.count else { return 0 }
    return sorted[allowed].nextUp
  }

  struct Model {
    var weights: [Float]
    var biases: [Float]
    let heads: Int

    func logit(_ buckets: [Int], head: Int) -> Float {
      let norm = ContentClassifier.featureNorm(buckets.count)
      var sum: Float = 0
      for bucket in buckets { sum += weights[bucket * heads + head] }
      return biases[head] + sum * norm
    }

    /// Each head's highest probability over a text's windows.
    func probabilities(_ windows: [[Int]]) -> [Float] {
      (0..<heads).map { head in
        windows.map { 1 / (1 + exp(-logit($0, head: head))) }.max() ?? 0
      }
    }
  }

  /// Fits all heads on the texts at `indices`.
  private func fit(_ indices: [Int]) -> Model {
    let heads = categories.count
    var samples: [Sample] = []
    for index in indices {
      for window in texts[index].windows.prefix(Self.windowsPerText) + texts[index].fragments {
        samples.append(Sample(buckets: window, labels: texts[index].labels))
      }
    }
    var model = Model(
      weights: [Float](repeating: 0, count: hasher.bucketCount * heads), biases: [Float](repeating: -2, count: heads),
      heads: heads)
    var squares = [Float](repeating: 1e-8, count: model.weights.count)
    var biasSquares = [Float](repeating: 1e-8, count: heads)
    // Positives weigh the square root of the class ratio, so rare categories are learnt without
    // swamping the benign texts.
    let positiveWeights: [Float] = (0..<heads).map { head in
      let positives = samples.filter { $0.labels[head] == true }.count
      let negatives = samples.filter { $0.labels[head] == false }.count
      return Float(max(1, (Double(negatives) / Double(max(positives, 1))).squareRoot()))
    }
    var random = SplitMix64(seed: 0x6775_6172_6472_6169)
    var order = Array(samples.indices)
    for _ in 0..<Self.epochs {
      for position in stride(from: order.count - 1, to: 0, by: -1) {
        order.swapAt(position, Int(random.next() % UInt64(position + 1)))
      }
      for sampleIndex in order {
        let sample = samples[sampleIndex]
        let norm = ContentClassifier.featureNorm(sample.buckets.count)
        for head in 0..<heads {
          guard let label = sample.labels[head] else { continue }
          let probability = 1 / (1 + exp(-model.logit(sample.buckets, head: head)))
          let weight = label ? positiveWeights[head] : 1
          let gradient = (probability - (label ? 1 : 0)) * weight
          biasSquares[head] += gradient * gradient
          model.biases[head] -= Self.learningRate * gradient / biasSquares[head].squareRoot()
          for bucket in sample.buckets {
            let index = bucket * heads + head
            let step = gradient * norm + Self.l2 * model.weights[index]
            squares[index] += step * step
            model.weights[index] -= Self.learningRate * step / squares[index].squareRoot()
          }
        }
      }
    }
    return model
  }

  private func log(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }
}

/// A small deterministic generator (SplitMix64), so training shuffles the same way every run.
struct SplitMix64 {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var value = state
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
  }
}
