/// Exact range reasoning for numbers typed digit by digit.
///
/// After each byte the matcher asks whether some completion of the digits typed so far
/// still lies within the bounds. The completions of a prefix form at most two intervals
/// (e.g. after `12`: `[12, 13)` by adding a fraction, and `[120, ∞)` by adding digits), so
/// the question is an exact interval intersection. Exponents are only allowed for
/// unbounded `number` schemas, which keeps this exact.
extension JSONGrammar.NumberSpec {
  /// An interval with optional, open or closed ends.
  struct Interval {
    var low: ExactDecimal?
    var lowClosed: Bool
    var high: ExactDecimal?
    var highClosed: Bool

    func intersects(_ other: Interval) -> Bool {
      let (low, lowClosed) = Self.maxLow(self, other)
      let (high, highClosed) = Self.minHigh(self, other)
      guard let low, let high else { return true }
      if low < high { return true }
      return low == high && lowClosed && highClosed
    }

    private static func maxLow(_ a: Interval, _ b: Interval) -> (ExactDecimal?, Bool) {
      guard let x = a.low else { return (b.low, b.lowClosed) }
      guard let y = b.low else { return (x, a.lowClosed) }
      if x == y { return (x, a.lowClosed && b.lowClosed) }
      return x > y ? (x, a.lowClosed) : (y, b.lowClosed)
    }

    private static func minHigh(_ a: Interval, _ b: Interval) -> (ExactDecimal?, Bool) {
      guard let x = a.high else { return (b.high, b.highClosed) }
      guard let y = b.high else { return (x, a.highClosed) }
      if x == y { return (x, a.highClosed && b.highClosed) }
      return x < y ? (x, a.highClosed) : (y, b.highClosed)
    }

    /// The mirror image `{-x : x ∈ self}`.
    var negated: Interval {
      Interval(low: high?.negated, lowClosed: highClosed, high: low?.negated, highClosed: lowClosed)
    }
  }

  var boundsInterval: Interval {
    Interval(
      low: bounds.minimum, lowClosed: !bounds.minimumIsExclusive,
      high: bounds.maximum, highClosed: !bounds.maximumIsExclusive)
  }

  /// Smallest and largest allowed integers (`nil`: unbounded on that side).
  var integerRange: (low: ExactDecimal?, high: ExactDecimal?) {
    let low = bounds.minimum.map { bounds.minimumIsExclusive ? $0.floor.adding(ExactDecimal(1)) : $0.ceiling }
    let high = bounds.maximum.map { bounds.maximumIsExclusive ? $0.ceiling.adding(ExactDecimal(-1)) : $0.floor }
    return (low, high)
  }

  var isSatisfiable: Bool {
    if isInteger {
      let (low, high) = integerRange
      guard let low, let high else { return true }
      return low <= high
    }
    let b = boundsInterval
    guard let l = b.low, let h = b.high else { return true }
    return l < h || (l == h && b.lowClosed && b.highClosed)
  }

  /// Whether an integer interval `[low, high]` (either side open-ended) meets the bounds.
  private func integersMeet(low: ExactDecimal?, high: ExactDecimal?) -> Bool {
    let range = integerRange
    let lo = [low, range.low].compactMap { $0 }.max()
    let hi = [high, range.high].compactMap { $0 }.min()
    guard let lo, let hi else { return true }
    return lo <= hi
  }

  /// Whether some number starting with `text` (`-?digits(.digits)?`, sign included) and
  /// continued by more digits or a fraction can satisfy the bounds.
  func prefixIsFeasible(_ text: [UInt8]) -> Bool {
    let negative = text.first == UInt8(ascii: "-")
    let body = negative ? Array(text.dropFirst()) : text
    if body.isEmpty {
      // Only the sign: any number of that sign, or zero.
      if isInteger { return integersMeet(low: nil, high: .zero) }
      return boundsInterval.intersects(Interval(low: nil, lowClosed: false, high: .zero, highClosed: true))
    }
    let dot = body.firstIndex(of: UInt8(ascii: "."))
    let integerDigits = Array(body[..<(dot ?? body.endIndex)])
    let fractionDigits = dot.map { Array(body[body.index(after: $0)...]) } ?? []
    let magnitude = Self.decimal(integerDigits + fractionDigits, fractionCount: fractionDigits.count)
    var candidates: [Interval] = []
    let unit = ExactDecimal(isNegative: false, digits: [1], exponent: -fractionDigits.count)
    if isInteger {
      // Digits only: the value itself, or (when it can grow) ten times it and beyond.
      candidates.append(Interval(low: magnitude, lowClosed: true, high: magnitude, highClosed: true))
    } else {
      candidates.append(Interval(low: magnitude, lowClosed: true, high: magnitude.adding(unit), highClosed: false))
    }
    if dot == nil, integerDigits != [UInt8(ascii: "0")] {
      // k more integer digits give [D·10^k, (D+1)·10^k): one interval per k, not one
      // interval from D·10 upwards (after "3", nothing in 100...250 can be reached).
      let growthBound = negative ? bounds.minimum : bounds.maximum
      guard let growthBound else { return true }  // the intervals run past any other bound
      let next = magnitude.adding(ExactDecimal(1))
      var k = 1
      while magnitude.magnitudeOrder + k <= max(growthBound.magnitudeOrder, 0) + 1 {
        let low = magnitude.shifted(by: k)
        let high = next.shifted(by: k)
        candidates.append(
          isInteger
            ? Interval(low: low, lowClosed: true, high: high.adding(ExactDecimal(-1)), highClosed: true)
            : Interval(low: low, lowClosed: true, high: high, highClosed: false))
        k += 1
      }
    }
    for var c in candidates {
      if negative { c = c.negated }
      if isInteger {
        if integersMeet(low: c.low, high: c.high) { return true }
      } else if c.intersects(boundsInterval) {
        return true
      }
    }
    return false
  }

  /// Whether `text` as a finished number satisfies the bounds.
  func acceptsFinal(_ text: [UInt8]) -> Bool {
    guard let value = ExactDecimal(jsonText: String(decoding: text, as: UTF8.self)) else { return false }
    return bounds.contains(value) && (!isInteger || value.isInteger)
  }

  private static func decimal(_ ascii: [UInt8], fractionCount: Int) -> ExactDecimal {
    ExactDecimal(isNegative: false, digits: ascii.map { $0 - 48 }, exponent: -fractionCount)
  }
}
