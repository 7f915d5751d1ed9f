import Foundation

/// The second stage of the checks: a compact linear classifier over hashed word and character
/// n-grams and word classes (``FeatureHasher``) — one logistic-regression head per category and
/// the request head (``ClassifierWeights/requestHead``) — trained offline by `guardrails-train`
/// on public safety data and shipped as a resource.
///
/// Long texts are read in windows of ``windowWords`` words, half a window apart, and each
/// category scores the highest of its windows, so one unsafe sentence is not diluted by pages of
/// harmless text around it.
public struct ContentClassifier: Sendable {
  public let weights: ClassifierWeights
  public let hasher: FeatureHasher

  /// Words per window.
  public static let windowWords = 96

  /// The fewest features a text's weights are averaged over: a text with fewer (a few words)
  /// counts for proportionally less, so a short text is judged by little evidence and lands
  /// near the prior instead of on the weight of one word.
  public static let minimumEvidence = 64

  /// The factor that scales the summed weights of `featureCount` features.
  public static func featureNorm(_ featureCount: Int) -> Float {
    1 / Float(max(featureCount, minimumEvidence)).squareRoot()
  }

  public init(weights: ClassifierWeights) {
    self.weights = weights
    hasher = FeatureHasher(bucketBits: weights.bucketBits)
  }

  /// The classifier the package ships, loaded once, on first use.
  public static let shipped: Result<ContentClassifier, any Error> = Result {
    guard let url = Bundle.guardrailWeights else {
      throw ClassifierWeights.FormatError(description: "the Guardrails resource classifier.bin is missing")
    }
    return ContentClassifier(weights: try ClassifierWeights(data: Data(contentsOf: url)))
  }

  /// The windows of `words` the classifier reads: all of them when they fit one window.
  public static func windows(of words: [String]) -> [ArraySlice<String>] {
    guard words.count > windowWords else { return [words[...]] }
    let stride = windowWords / 2
    var windows: [ArraySlice<String>] = []
    var start = 0
    while true {
      let end = min(start + windowWords, words.count)
      windows.append(words[start..<end])
      if end == words.count { break }
      start += stride
    }
    return windows
  }

  /// Each head's probability for normalised `words` (the highest over the windows): the scored
  /// categories in ``GuardrailCategory/scored`` order, then the request head.
  public func probabilities(words: [String]) -> [Float] {
    var best = [Float](repeating: 0, count: weights.heads.count)
    for window in Self.windows(of: words) {
      let window = probabilities(ofWindow: window)
      for index in best.indices { best[index] = max(best[index], window[index]) }
    }
    return best
  }

  /// The probabilities of one window.
  public func probabilities(ofWindow words: ArraySlice<String>) -> [Float] {
    let buckets = hasher.buckets(of: words)
    let count = weights.heads.count
    var sums = [Int32](repeating: 0, count: count)
    weights.weights.withUnsafeBufferPointer { table in
      for bucket in buckets {
        let base = bucket * count
        for index in 0..<count { sums[index] += Int32(table[base + index]) }
      }
    }
    let norm = Self.featureNorm(buckets.count)
    return weights.heads.indices.map { index in
      let head = weights.heads[index]
      let logit = head.bias + head.scale * Float(sums[index]) * norm
      return 1 / (1 + exp(-logit))
    }
  }
}

extension Bundle {
  /// The shipped weights file (`classifier.bin` in the target's resource bundle).
  public static var guardrailWeights: URL? { guardrailResource("classifier") }

  /// The shipped resource `name.bin` of the Guardrails target.
  ///
  /// The resource bundle (`<package>_Guardrails.resources`) is looked for next to the
  /// executable first: `Bundle.module` stops the process when it finds the bundle neither there
  /// nor in the build folder it was built in.
  public static func guardrailResource(_ name: String) -> URL? {
    let folder = Bundle.main.bundleURL
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    for bundle in names where bundle.hasSuffix("_Guardrails.resources") {
      let url = folder.appendingPathComponent(bundle).appendingPathComponent(name + ".bin")
      if FileManager.default.fileExists(atPath: url.path) { return url }
    }
    return Bundle.module.url(forResource: name, withExtension: "bin")
  }
}
