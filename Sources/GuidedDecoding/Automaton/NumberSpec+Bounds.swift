import JSON

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
    if let divisor { return multipleIsReachable(from: text, divisor) }
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
    // A multiple is written with no more fraction digits than its divisor has.
    if let divisor, let dot = text.firstIndex(of: UInt8(ascii: ".")), text.count - dot - 1 > divisor.scale {
      return false
    }
    return bounds.contains(value) && (!isInteger || value.isInteger)
  }

  /// Whether some completion of `text` is a multiple of `divisor` within the bounds.
  private func multipleIsReachable(from text: [UInt8], _ divisor: ExactDecimal.Divisor) -> Bool {
    firstMultiple(from: text, divisor) != nil
  }

  /// The bytes that complete `text` (`-?digits(.digits)?`) into a near valid number: the
  /// nearest multiple of the divisor within the bounds, or without a divisor the nearest
  /// number within the bounds with one more fraction digit than `text` and the bounds have.
  ///
  /// Nil when there is none; empty when `text` is one already.
  func nearestCompletion(after text: [UInt8]) -> [UInt8]? {
    let step = divisor ?? nearStep(after: text)
    guard let (scaled, negative) = firstMultiple(from: text, step) else { return nil }
    let divisor = step
    // Written with at least the fraction digits already typed (and one after a dot).
    let typedFraction = text.firstIndex(of: UInt8(ascii: ".")).map { text.count - $0 - 1 }
    var digits = scaled.isZero ? [0] : scaled.digits + [UInt8](repeating: 0, count: max(0, scaled.exponent))
    while digits.count <= divisor.scale { digits.insert(0, at: 0) }
    var integer = Array(digits.prefix(digits.count - divisor.scale))
    var fraction = Array(digits.suffix(divisor.scale))
    while let last = fraction.last, last == 0, fraction.count > max(typedFraction ?? 0, typedFraction == nil ? 0 : 1) {
      fraction.removeLast()
    }
    if integer.isEmpty { integer = [0] }
    var written = (negative ? [UInt8(ascii: "-")] : []) + integer.map { $0 + 48 }
    if !fraction.isEmpty || typedFraction != nil { written += [UInt8(ascii: ".")] + fraction.map { $0 + 48 } }
    guard written.starts(with: text) else { return nil }
    return Array(written.dropFirst(text.count))
  }

  /// The grid a completion without a divisor is looked for on: whole numbers for integers,
  /// else one decimal place finer than the text and the bounds.
  private func nearStep(after text: [UInt8]) -> ExactDecimal.Divisor {
    guard !isInteger else { return ExactDecimal.Divisor(factor: 1, scale: 0) }
    let typed = text.firstIndex(of: UInt8(ascii: ".")).map { text.count - $0 - 1 } ?? 0
    let bound = [bounds.minimum, bounds.maximum].compactMap { $0.map { max(0, -$0.exponent) } }.max() ?? 0
    return ExactDecimal.Divisor(factor: 1, scale: max(typed, bound) + 1)
  }

  /// The nearest completion of `text` that is a multiple of `divisor` within the bounds, in
  /// units of `10^-scale` (its magnitude, and whether it is negative).
  ///
  /// Values are counted in units of `10^-scale`, where every multiple is an integer. The
  /// completions of a prefix are a few ranges of such integers (the fraction goes on; or, with
  /// no dot yet, k more integer digits, one range per k), and a range `[a, b]` holds a
  /// multiple exactly when `a` rounded up to the next multiple is not above `b`.
  private func firstMultiple(from text: [UInt8], _ divisor: ExactDecimal.Divisor) -> (ExactDecimal, Bool)? {
    let negative = text.first == UInt8(ascii: "-")
    let body = negative ? Array(text.dropFirst()) : text
    let scale = divisor.scale
    let (low, high) = scaledBounds(scale)
    /// The multiple in magnitude range `[a, b]` nearest to `a`, within the bounds.
    func multiple(_ a: ExactDecimal, _ b: ExactDecimal) -> ExactDecimal? {
      // In signed scaled units the range is [a, b], or [-b, -a] below zero.
      var lower = negative ? b.negated : a
      var upper = negative ? a.negated : b
      if let low, low > lower { lower = low }
      if let high, high < upper { upper = high }
      guard !(upper < lower) else { return nil }
      if negative {
        // Nearest to zero: the largest multiple not above `upper`.
        let r = upper.remainder(dividingBy: divisor.factor)
        let last = upper.adding(ExactDecimal(-r))
        return last < lower ? nil : last.negated
      }
      let r = lower.remainder(dividingBy: divisor.factor)
      let first = r == 0 ? lower : lower.adding(ExactDecimal(divisor.factor - r))
      return upper < first ? nil : first
    }
    let unbounded = ExactDecimal(1).shifted(by: 40)
    if body.isEmpty {
      // Only the sign: any magnitude of that sign.
      let bound = negative ? low.map { $0.negated } : high
      if let bound, bound < .zero { return nil }
      return multiple(.zero, bound ?? unbounded).map { ($0, negative) }
    }
    let dot = body.firstIndex(of: UInt8(ascii: "."))
    let integerDigits = Array(body[..<(dot ?? body.endIndex)])
    let fractionDigits = dot.map { Array(body[body.index(after: $0)...]) } ?? []
    // A dot needs a digit after it, and a multiple has no more fraction digits than its divisor.
    guard fractionDigits.count <= scale, dot == nil || scale > 0 else { return nil }
    let typed = ExactDecimal(
      isNegative: false, digits: (integerDigits + fractionDigits).map { $0 - 48 }, exponent: 0)
    let start = typed.shifted(by: scale - fractionDigits.count)
    // The fraction goes on (integers: the value stays as it is).
    let span =
      isInteger ? ExactDecimal.zero : ExactDecimal(1).shifted(by: scale - fractionDigits.count).adding(ExactDecimal(-1))
    if let m = multiple(start, start.adding(span)) { return (m, negative) }
    guard dot == nil, integerDigits != [UInt8(ascii: "0")] else { return nil }
    // k more integer digits: [D·10^k, (D+1)·10^k) in value, k up to the bound that way (or
    // far enough that a range is longer than the divisor and past the other bound).
    let growthBound = negative ? bounds.minimum : bounds.maximum
    let otherBound = (negative ? bounds.maximum : bounds.minimum).map { max($0.magnitudeOrder, 0) } ?? 0
    let limit = growthBound.map { max($0.magnitudeOrder, 0) + 1 } ?? max(typed.magnitudeOrder, otherBound) + 18 + scale
    var k = 1
    while typed.magnitudeOrder + k <= limit {
      let a = start.shifted(by: k)
      let b = typed.adding(ExactDecimal(1)).shifted(by: k + scale).adding(ExactDecimal(-1))
      if let m = multiple(a, b) { return (m, negative) }
      k += 1
    }
    return nil
  }

  /// The bounds in units of `10^-scale`, rounded inwards to integers.
  private func scaledBounds(_ scale: Int) -> (ExactDecimal?, ExactDecimal?) {
    let low = bounds.minimum.map { m -> ExactDecimal in
      let x = m.shifted(by: scale)
      return bounds.minimumIsExclusive ? x.floor.adding(ExactDecimal(1)) : x.ceiling
    }
    let high = bounds.maximum.map { m -> ExactDecimal in
      let x = m.shifted(by: scale)
      return bounds.maximumIsExclusive ? x.ceiling.adding(ExactDecimal(-1)) : x.floor
    }
    return (low, high)
  }

  private static func decimal(_ ascii: [UInt8], fractionCount: Int) -> ExactDecimal {
    ExactDecimal(isNegative: false, digits: ascii.map { $0 - 48 }, exponent: -fractionCount)
  }
}
