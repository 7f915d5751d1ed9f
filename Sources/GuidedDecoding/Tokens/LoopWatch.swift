/// Watches the accepted tokens for the two kinds of loop a small model falls into: a block
/// repeated token for token, and a block repeated with only its numbers changing.
///
/// The second kind is the one exact comparison misses: an invoice whose items are the same
/// product with the quantity counting up (`{"price":2.99,"product":"Apple Cider","quantity":4}`,
/// then `…3.99…5}`, on and on), readings whose timestamps tick forward. For it the watch keeps
/// a second detector over the tokens' *shapes*: each run of number tokens — digits, and the
/// `.`, `-`, `:` or `+` between them — counts as one token standing for any number, so
/// `2.99` and `10.5` look alike. A shape loop must run four times as long as an exact one
/// (256 shape tokens by default, with blocks up to 96), since real values repeat a shape far
/// more often than they repeat a text: a list of coordinates or a time series is legitimate
/// well past the point where the same item written out again would not be. Either detector's
/// loop is reported.
struct LoopWatch: Sendable, Equatable {
  /// How many times longer a shape loop must run than an exact one.
  static let shapeRunFactor = 4
  /// The longest block of shapes looked for: an item of a few numbered members.
  static let shapeMaximumPeriod = 96

  private var exact: RepetitionDetector
  private var shapes: RepetitionDetector
  /// Whether the latest token was part of a number (the next number token then continues it).
  private var inNumber = false
  /// Whether the latest token continued a number and so added no shape.
  private var latestFolded = false
  /// Digits in the run of number tokens the latest token belongs to; 0 after any other token.
  private(set) var numberDigits = 0
  /// Bytes of the latest token, if it was digits.
  private var latestDigits = 0

  /// The stand-in for any number among the shapes; no token id is negative.
  private static let number = -1

  /// - Parameter minimumRun: tokens of exact repetition that make a loop.
  init(minimumRun: Int) {
    exact = RepetitionDetector(minimumRun: minimumRun)
    shapes = RepetitionDetector(
      minimumRun: minimumRun * Self.shapeRunFactor, maximumPeriod: Self.shapeMaximumPeriod)
  }

  /// Records an accepted token and the nesting depth after it.
  /// - Returns: the loop the latest tokens form, exactly or in shape, if any.
  mutating func append(_ token: Int, shape: NumberShape, depth: Int) -> RepetitionDetector.Loop? {
    let found = exact.append(token, depth: depth)
    let shapeLoop = appendShape(token, shape: shape, depth: depth)
    return found ?? shapeLoop
  }

  private mutating func appendShape(_ token: Int, shape: NumberShape, depth: Int) -> RepetitionDetector.Loop? {
    if inNumber, shape != .other {
      latestFolded = true
      return nil
    }
    latestFolded = false
    inNumber = shape == .digits
    return shapes.append(inNumber ? Self.number : token, depth: depth)
  }

  /// Counts the digits of an accepted token (`numberDigits`); called for every token, also
  /// while a loop is being ended, when nothing else is recorded.
  /// - Parameters:
  ///   - length: the token's length in bytes.
  ///   - replacingLast: the token takes the latest one's place (see `replaceLast`).
  mutating func countDigits(shape: NumberShape, length: Int, replacingLast: Bool = false) {
    if replacingLast { numberDigits -= latestDigits }
    switch shape {
    case .digits: numberDigits += length
    case .joiner where numberDigits > 0: break
    default: numberDigits = 0
    }
    latestDigits = shape == .digits ? length : 0
  }

  /// Puts `token` in place of the latest one (a forced token the model replaced by a longer
  /// one that begins with it), at the same depth.
  mutating func replaceLast(by token: Int, shape: NumberShape, depth: Int) {
    exact.replaceLast(by: token, depth: depth)
    if latestFolded {
      // The token replaced added no shape of its own: the longer one is the next shape.
      _ = appendShape(token, shape: shape, depth: depth)
    } else {
      inNumber = shape == .digits
      shapes.replaceLast(by: inNumber ? Self.number : token, depth: depth)
    }
  }

  /// Forgets everything (after a loop has been ended).
  mutating func reset() {
    exact.reset()
    shapes.reset()
    inNumber = false
    latestFolded = false
    numberDigits = 0
    latestDigits = 0
  }
}

/// What a token is to `LoopWatch`'s comparison of shapes.
enum NumberShape: UInt8, Sendable {
  /// Anything else: compared as itself.
  case other
  /// Digits only: a number, or part of one.
  case digits
  /// `.`, `-`, `:` or `+` alone: part of a number when it follows digits (`2.99`,
  /// `2024-05-01`, `10:30`), itself otherwise.
  case joiner

  private static let joiners = Array(".-:+".utf8)

  /// The shape of a token's bytes.
  init(_ bytes: [UInt8]) {
    if !bytes.isEmpty, bytes.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
      self = .digits
    } else if bytes.count == 1, Self.joiners.contains(bytes[0]) {
      self = .joiner
    } else {
      self = .other
    }
  }
}
