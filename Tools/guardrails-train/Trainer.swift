import Foundation
import Guardrails
import SafetyCorpus

/// Logistic regression over hashed n-grams and word classes: one head per scored category and
/// the request head (any clearly harmful request, ``ClassifierWeights/requestHead``), trained
/// with AdaGrad in a fixed order on five folds; the shipped model is the average of the five
/// fold models, so the out-of-fold scores the thresholds are chosen from are scores of the same
/// kind of model on texts it never saw.
struct Trainer {
  /// log2 of the bucket count: 2^17 buckets, 786 KB of Int8 weights for six heads.
  static let bucketBits = 17
  static let epochs = 10
  static let learningRate: Float = 0.4
  static let l2: Float = 1e-3
  /// The most windows one long text trains with.
  static let windowsPerText = 4
  /// Each benign text also trains as this many fragments of one to six of its words, so short
  /// inputs ("Be brief.", "Weather in Oslo?") are learnt as the harmless texts they usually are.
  static let fragmentsPerBenignText = 4
  /// The weight of an everyday request written for training (others weigh 1): ordinary
  /// requests share their framing ("how do I", "what's the best way to") with the harmful
  /// ones, and the public data has few of them, so each counts twice.
  static let everydayWeight: Float = 2

  /// Shares of the benign training texts a head scores at or above each of its thresholds, out
  /// of fold: from `upper` on a text is blocked outright, from `decision` on blocked when there
  /// is no judge, from `lower` on the judge is asked.
  struct Rates {
    var lower: Double
    var decision: Double
    var upper: Double
  }

  /// The benign rates at which the category heads' and the request head's thresholds sit.
  ///
  /// The category heads flag little on their own (their few positives are learnt less well);
  /// the request head, which pools every category's requests, carries most of the decision.
  /// Its rate is a point on the out-of-fold trade-off the program prints (`out of fold, request
  /// head …`): a higher rate detects more of the clearly harmful requests but flags many more
  /// of the everyday ones.
  ///
  /// The request head's band starts at its decision threshold: the judge is asked only about
  /// requests the classifier would block, to clear them, never about those it would allow.
  /// Why: a small model's judge says "unsafe" to most texts it is asked about (`bench/README.md`,
  /// Guardrails), so a band below the decision threshold turned everyday prompts ("explain
  /// the history of Rome as a teacher would") into violations.
  static let categoryRates = Rates(lower: 0.06, decision: 0.002, upper: 0.001)
  static let requestRates = Rates(lower: 0.03, decision: 0.03, upper: 0.005)

  struct Sample {
    var buckets: [Int]
    var labels: [Bool?]
    var weight: Float = 1
  }

  struct Text {
    /// The text itself, for the listing of out-of-fold errors.
    var text: String
    var windows: [[Int]]
    /// Short runs of a benign text's words (see ``fragmentsPerBenignText``).
    var fragments: [[Int]] = []
    /// Per head: unsafe, safe or not labelled.
    var labels: [Bool?]
    var fold: Int
    /// In a benign group that is measured: the texts the thresholds' rates are taken over (the
    /// everyday requests written for training are left out, as they would make rates look
    /// lower than on the measured groups).
    var isMeasuredBenign: Bool
    var isClearlyHarmful: Bool
    /// One of the everyday requests written for training (they weigh ``everydayWeight``).
    var isEveryday = false
    /// Its group (the probe's threshold holds each benign group to a rate of its own).
    var group: SafetyGroup
  }

  let texts: [Text]
  /// The request head's rates: ``requestRates`` unless the run asks for another decision rate
  /// (`--request-rate`), to measure another point of the trade-off.
  let requestHeadRates: Rates
  let hasher = FeatureHasher(bucketBits: Trainer.bucketBits)
  let categories = GuardrailCategory.scored
  let headCount = ClassifierWeights.headCount
  /// Whether training lists the training split's out-of-fold errors at the chosen thresholds
  /// (`--show-training-errors`): what to work on without looking at the held-out texts.
  var showsTrainingErrors = false

  /// - Parameter requestRate: the request head's decision rate (its band starts there too);
  ///   ``requestRates``' when nil.
  init(examples: [SafetyExample], requestRate: Double? = nil) {
    var rates = Self.requestRates
    if let requestRate {
      rates.lower = requestRate
      rates.decision = requestRate
      rates.upper = min(rates.upper, requestRate)
    }
    requestHeadRates = rates
    let hasher = hasher
    var random = SplitMix64(seed: 0x6672_6167_6d65_6e74)
    texts = examples.map { example in
      let words = GuardrailCascade.classifierWords(example.text)
      let windows = ContentClassifier.windows(of: words).map { hasher.buckets(of: $0) }
      guard case .training(let fold) = example.split else { preconditionFailure("held-out text in training") }
      // The request head learns the clearly harmful requests (the measured ones and those
      // written for training) against the benign texts; it leaves the moderation data's
      // social-media posts, which are not requests, to the category heads.
      let isRequest = example.group.isClearlyHarmful || example.group == .trainingHarmfulRequests
      var text = Text(
        text: example.text, windows: windows,
        labels: GuardrailCategory.scored.map { example.labels[$0] } + [
          isRequest ? true : example.isBenign ? false : nil
        ],
        fold: fold, isMeasuredBenign: example.group.isBenign, isClearlyHarmful: example.group.isClearlyHarmful,
        group: example.group)
      text.isEveryday = example.group == .trainingBenignRequests
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

  /// Trains, chooses thresholds, and returns the quantised weights and each training text's
  /// out-of-fold probabilities (what the probe is mixed and chosen with).
  func train() -> (weights: ClassifierWeights, outOfFold: [[Float]]) {
    var outOfFold = [[Float]](repeating: [], count: texts.count)
    var average = Model(
      weights: [Float](repeating: 0, count: hasher.bucketCount * headCount),
      biases: [Float](repeating: 0, count: headCount), heads: headCount)
    for fold in 0..<5 {
      let model = fit(texts.indices.filter { texts[$0].fold != fold })
      for index in texts.indices where texts[index].fold == fold {
        outOfFold[index] = model.probabilities(texts[index].windows)
      }
      for index in average.weights.indices { average.weights[index] += model.weights[index] / 5 }
      for index in average.biases.indices { average.biases[index] += model.biases[index] / 5 }
      log("fold \(fold) trained")
    }
    // As the cascade reads them: the request head counts only for texts shaped like requests.
    for index in texts.indices { RequestShape.gate(&outOfFold[index], text: texts[index].text) }
    reportCurve(outOfFold)
    let benignTexts = texts.indices.filter { texts[$0].isMeasuredBenign }
    var heads: [ClassifierWeights.Head] = []
    var quantised = [Int8](repeating: 0, count: hasher.bucketCount * headCount)
    for head in 0..<headCount {
      let rates = head == ClassifierWeights.requestHead ? requestHeadRates : Self.categoryRates
      let benign = benignTexts.map { outOfFold[$0][head] }
      let positives = texts.indices.filter { texts[$0].labels[head] == true }.map { outOfFold[$0][head] }
      let decision = Self.threshold(benign, rate: rates.decision)
      let upper = max(Self.threshold(benign, rate: rates.upper), decision)
      let lower = min(Self.threshold(benign, rate: rates.lower), decision)
      var largest: Float = 1e-9
      for bucket in 0..<hasher.bucketCount {
        largest = max(largest, abs(average.weights[bucket * headCount + head]))
      }
      let scale = largest / 127
      for bucket in 0..<hasher.bucketCount {
        let index = bucket * headCount + head
        quantised[index] = Int8(max(-127, min(127, (average.weights[index] / scale).rounded())))
      }
      heads.append(.init(bias: average.biases[head], scale: scale, lower: lower, decision: decision, upper: upper))
      let caught = { (limit: Float) in
        Double(positives.filter { $0 >= limit }.count) / Double(max(positives.count, 1)) * 100
      }
      let name = head < categories.count ? categories[head].rawValue : "request"
      log(
        String(
          format: "%@: %d positives; thresholds %.3f / %.3f / %.3f; out-of-fold detection %.1f %% / %.1f %% / %.1f %%",
          name, positives.count, lower, decision, upper, caught(lower), caught(decision), caught(upper)))
    }
    if showsTrainingErrors { listErrors(outOfFold, decisions: heads.map(\.decision)) }
    return (ClassifierWeights(bucketBits: Self.bucketBits, heads: heads, weights: quantised), outOfFold)
  }

  /// Prints the measured benign texts some head flags out of fold and the clearly harmful
  /// requests none flags, with the request head's probability.
  func listErrors(_ outOfFold: [[Float]], decisions: [Float]) {
    for index in texts.indices where texts[index].isMeasuredBenign || texts[index].isClearlyHarmful {
      let flagged = Self.isFlagged(outOfFold[index], limits: decisions)
      guard flagged == texts[index].isMeasuredBenign else { continue }
      let text = texts[index].text.prefix(140).replacingOccurrences(of: "\n", with: " ")
      let request = outOfFold[index][ClassifierWeights.requestHead]
      print(flagged ? "out of fold, false positive" : "out of fold, missed", String(format: "%.3f", request), text)
    }
  }

  /// Prints the out-of-fold trade-off on the training split: for each pair of benign rates
  /// (the request head's decision threshold, the category heads'), the share of the benign
  /// groups' texts some head flags and of the clearly harmful requests.
  func reportCurve(_ outOfFold: [[Float]]) {
    let benign = texts.indices.filter { texts[$0].isMeasuredBenign }
    let harmful = texts.indices.filter { texts[$0].isClearlyHarmful }
    for requestRate in [0.01, 0.02, 0.03, 0.04, 0.05, 0.07, 0.1] {
      for categoryRate in [0.0, 0.002, 0.005] {
        let limits = (0..<headCount).map { head in
          Self.threshold(
            benign.map { outOfFold[$0][head] },
            rate: head == ClassifierWeights.requestHead ? requestRate : categoryRate)
        }
        func flagged(_ index: Int) -> Bool { Self.isFlagged(outOfFold[index], limits: limits) }
        let falsePositives = Double(benign.filter(flagged).count) / Double(benign.count) * 100
        let detection = Double(harmful.filter(flagged).count) / Double(harmful.count) * 100
        let everyday = texts.indices.filter { texts[$0].isEveryday }
        let everydayRate = Double(everyday.filter(flagged).count) / Double(max(everyday.count, 1)) * 100
        log(
          String(
            format:
              "out of fold, request head at %.3f, category heads at %.3f: false positives %.1f %% (everyday requests %.1f %%), detection %.1f %%",
            requestRate, categoryRate, falsePositives, everydayRate, detection))
      }
    }
  }

  /// Whether some head's score is at or above its limit.
  static func isFlagged(_ scores: [Float], limits: [Float]) -> Bool {
    limits.indices.contains { scores[$0] >= limits[$0] }
  }

  /// The probability from which at most `rate` of `scores` lie at or above it.
  static func threshold(_ scores: [Float], rate: Double) -> Float {
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
    let heads = headCount
    var samples: [Sample] = []
    for index in indices {
      for window in texts[index].windows.prefix(Self.windowsPerText) + texts[index].fragments {
        let weight = texts[index].isEveryday ? Self.everydayWeight : 1
        samples.append(Sample(buckets: window, labels: texts[index].labels, weight: weight))
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
          let weight = (label ? positiveWeights[head] : 1) * sample.weight
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
