import Foundation

/// Evaluates arithmetic: numbers, `+ - * / %`, `^` (power, right-associative), unary minus and
/// parentheses.
///
/// Nothing else is accepted, so no input can do more than compute.
struct ArithmeticExpression {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  private let characters: [Character]
  private var index = 0

  /// The value of `text`.
  /// - Throws: `Failure` saying what is wrong and where.
  static func evaluate(_ text: String) throws -> Double {
    var parser = ArithmeticExpression(characters: Array(text))
    let value = try parser.sum()
    parser.skipSpaces()
    guard parser.index == parser.characters.count else {
      throw Failure(description: "unexpected '\(parser.characters[parser.index])' at \(parser.index + 1)")
    }
    guard value.isFinite else { throw Failure(description: "the result is not a finite number") }
    return value
  }

  /// `value` as a person writes it: integers without a fraction, others to 12 significant digits.
  static func format(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return String(format: "%.12g", value)
  }

  private init(characters: [Character]) { self.characters = characters }

  private mutating func sum() throws -> Double {
    var value = try product()
    while let op = peek(), op == "+" || op == "-" {
      index += 1
      let rhs = try product()
      value = op == "+" ? value + rhs : value - rhs
    }
    return value
  }

  private mutating func product() throws -> Double {
    var value = try unary()
    while let op = peek(), op == "*" || op == "/" || op == "%" {
      index += 1
      let rhs = try unary()
      if op != "*", rhs == 0 { throw Failure(description: "division by zero") }
      value = op == "*" ? value * rhs : op == "/" ? value / rhs : value.truncatingRemainder(dividingBy: rhs)
    }
    return value
  }

  /// A sign binds less tightly than `^`: -3 ^ 2 is -9.
  private mutating func unary() throws -> Double {
    if peek() == "-" {
      index += 1
      return -(try unary())
    }
    if peek() == "+" {
      index += 1
      return try unary()
    }
    return try power()
  }

  private mutating func power() throws -> Double {
    let base = try primary()
    guard peek() == "^" else { return base }
    index += 1
    return pow(base, try unary())
  }

  private mutating func primary() throws -> Double {
    guard let next = peek() else { throw Failure(description: "the expression ends too early") }
    if next == "(" {
      index += 1
      let value = try sum()
      guard peek() == ")" else { throw Failure(description: "a '(' is not closed") }
      index += 1
      return value
    }
    let start = index
    while index < characters.count, characters[index].isNumber || characters[index] == "." { index += 1 }
    guard index > start, let value = Double(String(characters[start..<index])) else {
      throw Failure(description: "expected a number at \(start + 1), found '\(next)'")
    }
    return value
  }

  /// The next character that is not a space, without taking it.
  private mutating func peek() -> Character? {
    skipSpaces()
    return index < characters.count ? characters[index] : nil
  }

  private mutating func skipSpaces() {
    while index < characters.count, characters[index].isWhitespace { index += 1 }
  }
}
