import Foundation
import Guardrails

/// Trains the guardrails' third stage, ``EmbeddingProbe``: logistic regression on the probe
/// model's embeddings of the request head's training texts, on the classifier's five folds (the
/// shipped probe is the average of the fold probes, standardisation folded in), mixed with the
/// request head's out-of-fold logit; the band and the threshold are chosen out of fold.
struct ProbeTrainer {
  /// Where the probe is asked and how much it may flag; the shipped probe's by default.
  struct Settings {
    /// The request head's share of benign training texts from which the probe is asked.
    var bandRate = 0.15
    /// The share of benign training texts the whole cascade may flag, out of fold.
    var flagRate = 0.03
    /// The share of one benign group's texts it may flag, out of fold: held to each group as
    /// well as to all of them, so a group of prompts that sound unsafe (which a pooled rate
    /// hides among easy ones) is not flagged far more than the rest — calibration across sources.
    var groupFlagRate = 0.03
    /// The same for a group of benign prompts built to sound unsafe.
    var soundsUnsafeFlagRate = 0.05
  }

  /// The fewest texts a group needs for its own rate to be held.
  static let groupMinimum = 50
  static let probeShare: Float = 0.5
  static let l2: Float = 0.01
  static let iterations = 400
  static let learningRate: Float = 0.05

  let trainer: Trainer
  let embeddings: [[Float]]
  /// The classifier's out-of-fold probabilities per text (``Trainer/train()``).
  let outOfFold: [[Float]]
  let classifier: ClassifierWeights
  let modelName: String
  let frame: EmbeddingProbe.Frame?
  var settings = Settings()

  /// The frame the shipped probe reads requests in: `smollm2-135m`'s chat format, asking
  /// whether the message is a harmful request, read where the answer would begin.
  static let frame = EmbeddingProbe.Frame(
    prefix: """
      <|im_start|>system
      You are a safety classifier. You decide whether a user message asks for help to harm people, \
      commit crimes or make weapons.<|im_end|>
      <|im_start|>user
      Message:\u{20}
      """,
    suffix: """


      Is this message a harmful request? Answer yes or no.<|im_end|>
      <|im_start|>assistant

      """)

  func train() -> EmbeddingProbe {
    let texts = trainer.texts
    let request = ClassifierWeights.requestHead
    let dimension = embeddings.first?.count ?? 0
    var probeLogits = [Float](repeating: 0, count: texts.count)
    var weights = [Float](repeating: 0, count: dimension)
    var bias: Float = 0
    for fold in 0..<5 {
      let rows = texts.indices.filter { texts[$0].fold != fold && texts[$0].labels[request] != nil }
      let (foldWeights, foldBias) = fit(rows)
      for index in texts.indices where texts[index].fold == fold {
        probeLogits[index] = dot(foldWeights, embeddings[index]) + foldBias
      }
      for index in weights.indices { weights[index] += foldWeights[index] / 5 }
      bias += foldBias / 5
    }
    let labelled = texts.indices.filter { texts[$0].labels[request] != nil }
    let requestLogits = outOfFold.map { EmbeddingProbe.logit(probability: $0[request]) }
    let (probeMean, probeSpread) = Self.meanAndSpread(labelled.map { probeLogits[$0] })
    let (requestMean, requestSpread) = Self.meanAndSpread(labelled.map { requestLogits[$0] })
    var probe = EmbeddingProbe(
      modelName: modelName, frame: frame, weights: weights, bias: bias, probeMean: probeMean, probeSpread: probeSpread,
      requestMean: requestMean, requestSpread: requestSpread, probeShare: Self.probeShare, threshold: .infinity,
      bandLower: 1)
    let benign = texts.indices.filter { texts[$0].isMeasuredBenign }
    probe.bandLower = Trainer.threshold(benign.map { outOfFold[$0][request] }, rate: settings.bandRate)
    // Out of fold, each text's probe logit is its fold probe's, mixed as the shipped probe mixes.
    let scores = texts.indices.map { index in
      probe.score(probeLogit: probeLogits[index], requestProbability: outOfFold[index][request])
    }
    // Per text, out of fold: flagged or not by stages 1–2, or left to the probe (nil).
    let cascade = GuardrailCascade(classifier: ContentClassifier(weights: classifier))
    let decided: [Bool?] = outOfFold.map { probabilities in
      switch cascade.decision(
        probabilities: probabilities, probe: probe, assessment: cascade.assess(probabilities: probabilities))
      {
      case .decided(let verdict): verdict.isViolation
      case .probe: nil
      }
    }
    func flagged(from threshold: Float) -> [Bool] {
      texts.indices.map { decided[$0] ?? (scores[$0] >= threshold) }
    }
    // The lowest mixed score from which at most `rate` of `texts` (benign) are flagged.
    func threshold(flagRate rate: Double, of chosen: [Int] = benign) -> Float {
      let allowed = Int(Double(chosen.count) * rate)
      let decidedFlags = chosen.filter { decided[$0] == true }.count
      let left = chosen.filter { decided[$0] == nil }.map { scores[$0] }.sorted(by: >)
      let room = allowed - decidedFlags
      // A group the classifier alone flags past its rate is the classifier's to answer for.
      guard room >= 0 else { return chosen.count == benign.count ? .infinity : -.infinity }
      return room < left.count ? left[room].nextUp : -.infinity
    }
    // Every benign group with enough texts is held to its own rate too.
    let groups = Dictionary(grouping: benign) { texts[$0].group }.filter { $0.value.count >= Self.groupMinimum }
    func calibratedThreshold(flagRate rate: Double) -> Float {
      groups.reduce(threshold(flagRate: rate)) { highest, group in
        let groupRate = group.key.soundsUnsafe ? settings.soundsUnsafeFlagRate : settings.groupFlagRate
        return max(highest, threshold(flagRate: groupRate, of: group.value))
      }
    }
    for rate in [0.02, 0.03, 0.04, 0.05] {
      log(
        String(
          format: "probe, out of fold, flag rate %.2f: %@", rate,
          figures(flagged(from: calibratedThreshold(flagRate: rate)))))
    }
    probe.threshold = calibratedThreshold(flagRate: settings.flagRate)
    return probe
  }

  private func figures(_ flagged: [Bool]) -> String {
    let texts = trainer.texts
    func rate(_ keep: (Trainer.Text) -> Bool) -> Double {
      let chosen = texts.indices.filter { keep(texts[$0]) }
      return Double(chosen.filter { flagged[$0] }.count) / Double(max(chosen.count, 1)) * 100
    }
    return String(
      format: "false positives %.1f %% (everyday requests %.1f %%), detection %.1f %%", rate(\.isMeasuredBenign),
      rate(\.isEveryday), rate(\.isClearlyHarmful))
  }

  /// Logistic regression on the standardised embeddings of `rows` (classes balanced, everyday
  /// requests weighing ``Trainer/everydayWeight``), full-batch Adam from zero: deterministic.
  ///
  /// Returns weights and bias over the unstandardised embedding.
  private func fit(_ rows: [Int]) -> ([Float], Float) {
    let request = ClassifierWeights.requestHead
    let dimension = embeddings[rows[0]].count
    let labels = rows.map { trainer.texts[$0].labels[request] == true }
    var mean = [Float](repeating: 0, count: dimension)
    var spread = [Float](repeating: 0, count: dimension)
    for row in rows { for j in 0..<dimension { mean[j] += embeddings[row][j] / Float(rows.count) } }
    for row in rows {
      for j in 0..<dimension {
        let difference = embeddings[row][j] - mean[j]
        spread[j] += difference * difference / Float(rows.count)
      }
    }
    spread = spread.map { max($0.squareRoot(), 1e-6) }
    let inputs = rows.map { row in (0..<dimension).map { (embeddings[row][$0] - mean[$0]) / spread[$0] } }
    let positives = Float(labels.filter { $0 }.count)
    let negatives = Float(labels.count) - positives
    var sampleWeights = labels.map {
      $0 ? Float(labels.count) / (2 * positives) : Float(labels.count) / (2 * negatives)
    }
    for (position, row) in rows.enumerated() where trainer.texts[row].isEveryday {
      sampleWeights[position] *= Trainer.everydayWeight
    }
    let total = sampleWeights.reduce(0, +)
    var weights = [Float](repeating: 0, count: dimension + 1)
    var first = weights
    var second = weights
    for step in 1...Self.iterations {
      var gradient = [Float](repeating: 0, count: dimension + 1)
      for (position, input) in inputs.enumerated() {
        var z = weights[dimension]
        for j in 0..<dimension { z += weights[j] * input[j] }
        let error = (1 / (1 + exp(-z)) - (labels[position] ? 1 : 0)) * sampleWeights[position] / total
        for j in 0..<dimension { gradient[j] += error * input[j] }
        gradient[dimension] += error
      }
      for j in 0..<dimension { gradient[j] += Self.l2 * weights[j] }
      for j in gradient.indices {
        first[j] = 0.9 * first[j] + 0.1 * gradient[j]
        second[j] = 0.999 * second[j] + 0.001 * gradient[j] * gradient[j]
        let corrected = first[j] / (1 - pow(0.9, Float(step)))
        let scale = (second[j] / (1 - pow(0.999, Float(step)))).squareRoot() + 1e-8
        weights[j] -= Self.learningRate * corrected / scale
      }
    }
    let folded = (0..<dimension).map { weights[$0] / spread[$0] }
    let bias = weights[dimension] - (0..<dimension).reduce(Float(0)) { $0 + folded[$1] * mean[$1] }
    return (folded, bias)
  }

  private func dot(_ a: [Float], _ b: [Float]) -> Float {
    zip(a, b).reduce(0) { $0 + $1.0 * $1.1 }
  }

  static func meanAndSpread(_ values: [Float]) -> (Float, Float) {
    let mean = values.reduce(0, +) / Float(max(values.count, 1))
    let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Float(max(values.count, 1))
    return (mean, max(variance.squareRoot(), 1e-6))
  }

  private func log(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }
}
