/// When to check text that is still being generated: at each sentence end, and after every
/// ``interval`` characters without one, reading only the text's tail, so a long answer costs
/// the same per token as a short one and a violation is caught within a sentence of its start.
public struct StreamingCheckpoints: Sendable {
  /// The most characters generated between two checks.
  public let interval: Int
  /// The characters of the tail a check reads (the classifier's windows overlap inside it).
  public let tailLength: Int
  private var checkedLength = 0

  public init(interval: Int = 96, tailLength: Int = 800) {
    self.interval = interval
    self.tailLength = tailLength
  }

  /// The tail of `text` to check now, or nil when no checkpoint has been reached since the last.
  public mutating func textToCheck(_ text: String) -> Substring? {
    let length = text.utf8.count
    guard length > checkedLength else { return nil }
    let grown = length - checkedLength
    let endsSentence = text.utf8.suffix(grown).contains { [0x2E, 0x21, 0x3F, 0x0A].contains($0) }
    guard grown >= interval || endsSentence else { return nil }
    checkedLength = length
    return text.suffix(tailLength)
  }
}
