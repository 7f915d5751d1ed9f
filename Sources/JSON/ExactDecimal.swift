/// An exact decimal number: `digits × 10^exponent`, with a sign.
///
/// JSON numbers are decimal text, and JSON Schema bounds must be compared exactly
/// (`maximum: 0.1` must not admit `0.1000000000000000055`), so numbers are never
/// converted to `Double` inside the constraint engine.
///
/// The value is kept normalised: no leading or trailing zero digits, and zero is
/// `digits == []`, `exponent == 0`, `isNegative == false`. Normalisation makes
/// `==` and `hash` agree with numeric equality (`1`, `1.0` and `10e-1` are equal).
public struct ExactDecimal: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// Decimal digits (values 0–9), most significant first.
  public private(set) var digits: [UInt8]
  /// Power of ten applied to `digits` read as an integer.
  public private(set) var exponent: Int
  /// Whether the value is below zero.
  public private(set) var isNegative: Bool
  /// Whether the source text had a fraction or an exponent (`1.0`, `1e0`).
  ///
  /// Not part of the value (ignored by `==` and hashing); draft-04 JSON Schema does not count such
  /// literals as integers, so corpus checks need to know.
  public internal(set) var isFloatLiteral = false

  public static func == (lhs: ExactDecimal, rhs: ExactDecimal) -> Bool {
    lhs.digits == rhs.digits && lhs.exponent == rhs.exponent && lhs.isNegative == rhs.isNegative
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(digits)
    hasher.combine(exponent)
    hasher.combine(isNegative)
  }

  /// Zero.
  public static let zero = ExactDecimal(isNegative: false, digits: [], exponent: 0)

  /// Creates a value from raw parts and normalises it.
  public init(isNegative: Bool, digits: [UInt8], exponent: Int) {
    var digits = digits
    var exponent = exponent
    let firstNonZero = digits.firstIndex { $0 != 0 } ?? digits.count
    digits.removeFirst(firstNonZero)
    while let last = digits.last, last == 0 {
      digits.removeLast()
      exponent += 1
    }
    if digits.isEmpty {
      self.digits = []
      self.exponent = 0
      self.isNegative = false
    } else {
      self.digits = digits
      self.exponent = exponent
      self.isNegative = isNegative
    }
  }

  /// Creates a value from an integer.
  public init(_ value: Int) {
    let magnitude = value.magnitude
    self.init(isNegative: value < 0, digits: String(magnitude).utf8.map { $0 - 48 }, exponent: 0)
  }

  /// Parses JSON number text (`-?int(.frac)?([eE][+-]?exp)?`); returns `nil` when the text is
  /// not a JSON number or its exponent is absurdly large.
  public init?(jsonText text: some StringProtocol) {
    var bytes = Array(text.utf8)[...]
    let negative = bytes.first == UInt8(ascii: "-")
    if negative { bytes = bytes.dropFirst() }
    var digits: [UInt8] = []
    var exponent = 0
    var sawInteger = false
    while let b = bytes.first, b >= 48, b <= 57 {
      digits.append(b - 48)
      bytes = bytes.dropFirst()
      sawInteger = true
    }
    guard sawInteger else { return nil }
    if digits.count > 1, digits[0] == 0 { return nil }
    if bytes.first == UInt8(ascii: ".") {
      bytes = bytes.dropFirst()
      var sawFraction = false
      while let b = bytes.first, b >= 48, b <= 57 {
        digits.append(b - 48)
        exponent -= 1
        bytes = bytes.dropFirst()
        sawFraction = true
      }
      guard sawFraction else { return nil }
    }
    if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
      bytes = bytes.dropFirst()
      var expNegative = false
      if let s = bytes.first, s == UInt8(ascii: "+") || s == UInt8(ascii: "-") {
        expNegative = s == UInt8(ascii: "-")
        bytes = bytes.dropFirst()
      }
      var value = 0
      var sawDigit = false
      while let b = bytes.first, b >= 48, b <= 57 {
        value = value * 10 + Int(b - 48)
        // Why: exponents this large cannot be written out or compared sensibly.
        guard value < 100_000 else { return nil }
        bytes = bytes.dropFirst()
        sawDigit = true
      }
      guard sawDigit else { return nil }
      exponent += expNegative ? -value : value
    }
    guard bytes.isEmpty else { return nil }
    self.init(isNegative: negative, digits: digits, exponent: exponent)
    isFloatLiteral = text.contains { $0 == "." || $0 == "e" || $0 == "E" }
  }

  /// Whether the value has no fractional part.
  public var isInteger: Bool { exponent >= 0 }

  /// Whether the value is zero.
  public var isZero: Bool { digits.isEmpty }

  /// The decimal position just above the most significant digit (`123` → 3, `0.05` → -1).
  package var magnitudeOrder: Int { digits.count + exponent }

  /// The value times `10^k`.
  public func shifted(by k: Int) -> ExactDecimal {
    ExactDecimal(isNegative: isNegative, digits: digits, exponent: exponent + k)
  }

  /// The value with its sign flipped.
  public var negated: ExactDecimal {
    ExactDecimal(isNegative: !isNegative, digits: digits, exponent: exponent)
  }

  /// The smallest integer not below the value.
  public var ceiling: ExactDecimal {
    if isInteger { return self }
    let keep = max(0, magnitudeOrder)
    let truncated = ExactDecimal(
      isNegative: isNegative, digits: Array(digits.prefix(keep)), exponent: 0)
    return isNegative ? truncated : truncated.adding(ExactDecimal(1))
  }

  /// The largest integer not above the value.
  public var floor: ExactDecimal { negated.ceiling.negated }

  /// Compact JSON text: plain integers and decimals for everyday magnitudes, exponent form
  /// only when plain text would be longer than 40 digits.
  public var jsonText: String {
    if isZero { return "0" }
    var text = isNegative ? "-" : ""
    let digitText = String(decoding: digits.map { $0 + 48 }, as: UTF8.self)
    if exponent >= 0, magnitudeOrder <= 40 {
      text += digitText + String(repeating: "0", count: exponent)
    } else if exponent < 0, -exponent <= 40 {
      let order = magnitudeOrder
      if order > 0 {
        text += String(digitText.prefix(order)) + "." + String(digitText.dropFirst(order))
      } else {
        text += "0." + String(repeating: "0", count: -order) + digitText
      }
    } else {
      let rest = digitText.dropFirst()
      text += String(digitText.prefix(1)) + (rest.isEmpty ? "" : "." + rest)
      text += "e" + String(magnitudeOrder - 1)
    }
    return text
  }

  public var description: String { jsonText }

  /// Exact sum of two values.
  public func adding(_ other: ExactDecimal) -> ExactDecimal {
    if isZero { return other }
    if other.isZero { return self }
    let e = min(exponent, other.exponent)
    let a = digits + [UInt8](repeating: 0, count: exponent - e)
    let b = other.digits + [UInt8](repeating: 0, count: other.exponent - e)
    if isNegative == other.isNegative {
      return ExactDecimal(isNegative: isNegative, digits: Self.addMagnitudes(a, b), exponent: e)
    }
    if Self.compareMagnitudes(a, b) >= 0 {
      return ExactDecimal(isNegative: isNegative, digits: Self.subtractMagnitudes(a, b), exponent: e)
    }
    return ExactDecimal(
      isNegative: other.isNegative, digits: Self.subtractMagnitudes(b, a), exponent: e)
  }

  public static func < (lhs: ExactDecimal, rhs: ExactDecimal) -> Bool {
    if lhs.isNegative != rhs.isNegative { return lhs.isNegative }
    let magnitudeOrder = compareAbsolute(lhs, rhs)
    return lhs.isNegative ? magnitudeOrder > 0 : magnitudeOrder < 0
  }

  /// Compares absolute values: -1, 0 or 1.
  static func compareAbsolute(_ a: ExactDecimal, _ b: ExactDecimal) -> Int {
    if a.isZero || b.isZero { return a.isZero ? (b.isZero ? 0 : -1) : 1 }
    if a.magnitudeOrder != b.magnitudeOrder { return a.magnitudeOrder < b.magnitudeOrder ? -1 : 1 }
    for i in 0..<max(a.digits.count, b.digits.count) {
      let x = i < a.digits.count ? a.digits[i] : 0
      let y = i < b.digits.count ? b.digits[i] : 0
      if x != y { return x < y ? -1 : 1 }
    }
    return 0
  }

  private static func compareMagnitudes(_ a: [UInt8], _ b: [UInt8]) -> Int {
    let a = Array(a.drop { $0 == 0 })
    let b = Array(b.drop { $0 == 0 })
    if a.count != b.count { return a.count < b.count ? -1 : 1 }
    for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
    return 0
  }

  private static func addMagnitudes(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
    var result: [UInt8] = []
    var carry: UInt8 = 0
    var i = a.count - 1
    var j = b.count - 1
    while i >= 0 || j >= 0 || carry > 0 {
      let sum = (i >= 0 ? a[i] : 0) + (j >= 0 ? b[j] : 0) + carry
      result.append(sum % 10)
      carry = sum / 10
      i -= 1
      j -= 1
    }
    return result.reversed()
  }

  /// `a - b` for magnitudes with `a >= b`.
  private static func subtractMagnitudes(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
    var result: [UInt8] = []
    var borrow: Int = 0
    var j = b.count - 1
    for i in stride(from: a.count - 1, through: 0, by: -1) {
      var d = Int(a[i]) - borrow - (j >= 0 ? Int(b[j]) : 0)
      borrow = d < 0 ? 1 : 0
      if d < 0 { d += 10 }
      result.append(UInt8(d))
      j -= 1
    }
    return result.reversed()
  }
}
