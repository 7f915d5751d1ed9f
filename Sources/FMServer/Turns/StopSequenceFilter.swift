/// Finds the request's `stop` texts in a streamed answer: text passes through except a tail
/// that could be the start of a stop text, which is held back until the next piece decides.
///
/// When a stop text appears, the answer ends before it (the stop text is not returned).
struct StopSequenceFilter {
  let stops: [String]
  private var held = ""
  /// The stop text that appeared, if one has.
  private(set) var matched: String?
  /// Whether a stop text has appeared.
  var stopped: Bool { matched != nil }

  init(stops: [String]) { self.stops = stops }

  /// The text of `piece` that is certainly part of the answer.
  mutating func feed(_ piece: String) -> String {
    guard !stops.isEmpty else { return piece }
    guard !stopped else { return "" }
    let text = held + piece
    if let (stop, range) = stops.compactMap({ stop in text.range(of: stop).map { (stop, $0) } })
      .min(by: { $0.1.lowerBound < $1.1.lowerBound })
    {
      matched = stop
      held = ""
      return String(text[..<range.lowerBound])
    }
    // Hold back the longest tail that is a proper prefix of some stop text.
    var keep = 0
    for stop in stops {
      for length in stride(from: min(stop.count - 1, text.count), to: keep, by: -1)
      where text.hasSuffix(stop.prefix(length)) {
        keep = length
        break
      }
    }
    held = String(text.suffix(keep))
    return String(text.dropLast(keep))
  }

  /// What is still held when the answer ends without a stop text.
  mutating func finish() -> String {
    defer { held = "" }
    return stopped ? "" : held
  }
}
