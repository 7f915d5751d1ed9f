/// A set of Unicode scalar values as sorted, disjoint, non-adjacent closed ranges.
struct CodePointSet: Hashable, Sendable {
  private(set) var ranges: [ClosedRange<UInt32>]

  static let maxCodePoint: UInt32 = 0x10FFFF
  static let empty = CodePointSet(ranges: [])
  static let all = CodePointSet(ranges: [0...maxCodePoint])
  static let digits = CodePointSet(ranges: [48...57])
  static let word = CodePointSet(ranges: [48...57, 65...90, 95...95, 97...122])
  /// ECMAScript `\s` restricted to the common cases: tab, newline, vertical tab, form feed,
  /// carriage return, space, no-break space, and the Unicode space separators.
  static let space = CodePointSet(ranges: [
    9...13, 32...32, 0xA0...0xA0, 0x1680...0x1680, 0x2000...0x200A, 0x2028...0x2029,
    0x202F...0x202F, 0x205F...0x205F, 0x3000...0x3000, 0xFEFF...0xFEFF,
  ])

  init(ranges: [ClosedRange<UInt32>]) {
    self.ranges = Self.normalise(ranges)
  }

  init(_ scalar: UInt32) {
    self.ranges = [scalar...scalar]
  }

  func contains(_ c: UInt32) -> Bool {
    var lo = 0
    var hi = ranges.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if ranges[mid].upperBound < c {
        lo = mid + 1
      } else if ranges[mid].lowerBound > c {
        hi = mid
      } else {
        return true
      }
    }
    return false
  }

  func union(_ other: CodePointSet) -> CodePointSet {
    CodePointSet(ranges: ranges + other.ranges)
  }

  var inverted: CodePointSet {
    var result: [ClosedRange<UInt32>] = []
    var next: UInt32 = 0
    for r in ranges {
      if r.lowerBound > next { result.append(next...(r.lowerBound - 1)) }
      next = r.upperBound &+ 1
      if r.upperBound == Self.maxCodePoint { return CodePointSet(ranges: result) }
    }
    result.append(next...Self.maxCodePoint)
    return CodePointSet(ranges: result)
  }

  var isEmpty: Bool { ranges.isEmpty }

  private static func normalise(_ input: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
    let sorted = input.sorted { $0.lowerBound < $1.lowerBound }
    var result: [ClosedRange<UInt32>] = []
    for r in sorted {
      if let last = result.last, r.lowerBound <= last.upperBound &+ 1 {
        result[result.count - 1] = last.lowerBound...max(last.upperBound, r.upperBound)
      } else {
        result.append(r)
      }
    }
    return result
  }
}

extension Array where Element == UInt32 {
  /// For sorted interval starts (the first being 0), the index of the interval holding
  /// `value`: the last start not above it.
  func intervalIndex(of value: UInt32) -> Int {
    var lo = 0
    var hi = count - 1
    while lo < hi {
      let mid = (lo + hi + 1) / 2
      if self[mid] <= value { lo = mid } else { hi = mid - 1 }
    }
    return lo
  }
}
