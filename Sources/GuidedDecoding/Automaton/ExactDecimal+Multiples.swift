import JSON

/// Divisibility, for JSON Schema `multipleOf`.
extension ExactDecimal {
  /// A `multipleOf` divisor as `factor × 10^-scale`, with `factor` a positive integer small
  /// enough for `Int` arithmetic: a value is a multiple when it has at most `scale` fraction
  /// digits and, times `10^scale`, is divisible by `factor`.
  struct Divisor: Sendable, Hashable {
    var factor: Int
    var scale: Int

    /// The divisor of a positive `value`, nil when its digits do not fit (more than 15).
    init?(_ value: ExactDecimal) {
      guard !value.isNegative, !value.isZero, value.digits.count + max(0, value.exponent) <= 15,
        value.exponent >= -15
      else { return nil }
      var factor = 0
      for d in value.digits { factor = factor * 10 + Int(d) }
      for _ in 0..<max(0, value.exponent) { factor *= 10 }
      self.factor = factor
      self.scale = max(0, -value.exponent)
    }

    init(factor: Int, scale: Int) {
      self.factor = factor
      self.scale = scale
    }

    /// The same divisor for integer values: an integer `v` is a multiple of
    /// `factor × 10^-scale` when `v × 10^scale` is divisible by `factor`, that is when `v` is
    /// divisible by `factor / gcd(factor, 10^scale)`.
    var forIntegers: Divisor {
      var power = 1
      for _ in 0..<min(scale, 18) { power *= 10 }
      var (a, b) = (factor, power)
      while b != 0 { (a, b) = (b, a % b) }
      return Divisor(factor: factor / a, scale: 0)
    }
  }

  /// The remainder of an integer value divided by `divisor` (positive), from 0 to `divisor - 1`
  /// whatever the sign.
  func remainder(dividingBy divisor: Int) -> Int {
    var r = 0
    for d in digits { r = (r * 10 + Int(d)) % divisor }
    for _ in 0..<max(0, exponent) { r = (r * 10) % divisor }
    return isNegative && r != 0 ? divisor - r : r
  }

  /// Whether the value is an integer multiple of `divisor`.
  func isMultiple(of divisor: Divisor) -> Bool {
    let scaled = shifted(by: divisor.scale)
    return scaled.isInteger && scaled.remainder(dividingBy: divisor.factor) == 0
  }

  /// Whether the value is an integer multiple of `other` (positive), for validation.
  public func isMultiple(of other: ExactDecimal) -> Bool {
    if let divisor = Divisor(other) { return isMultiple(of: divisor) }
    // A divisor too long for `Int`: both sides as integers at a common scale, by repeated
    // subtraction of shifted copies (long division).
    let scale = max(0, -exponent, -other.exponent)
    var rest = ExactDecimal(isNegative: false, digits: digits, exponent: exponent + scale)
    let step = ExactDecimal(isNegative: false, digits: other.digits, exponent: other.exponent + scale)
    guard rest.isInteger, step.isInteger else { return false }
    while !(rest < step) {
      var shifted = step
      while !(rest < shifted.shifted(by: 1)) { shifted = shifted.shifted(by: 1) }
      rest = rest.adding(shifted.negated)
    }
    return rest.isZero
  }
}
