/// Where the parts of prompts evaluated into a cache end: each position `b` says that the cache
/// up to `b` was evaluated part by part, as `DecodeSteps.promptPlan` splits a prompt, from an
/// empty cache.
///
/// Why: llama.cpp rounds a token's keys and values differently depending on the batch it was
/// evaluated in (its kernels take rows four at a time, or one by one for a batch of one). A
/// prefix evaluated as its own part is the same whichever prompt it began, so a new session can
/// reuse it and still get exactly the logits a fresh cache gives; a prefix evaluated in one
/// batch with whatever followed it would give slightly different ones, and greedy decoding
/// could start differently on a near tie.
public struct PartBoundaries: Sendable, Equatable {
  /// The positions, in increasing order; 0 (the empty prefix) is always one.
  public private(set) var positions: [Int] = [0]

  public init() {}

  /// The end of the longest prefix evaluated part by part.
  public var last: Int { positions.last ?? 0 }

  /// Records that a part ends at `position`, past the last one.
  public mutating func mark(_ position: Int) {
    if position > last { positions.append(position) }
  }

  /// Forgets the boundaries past `count`, the cache's new length.
  public mutating func truncate(to count: Int) {
    positions.removeAll { $0 > count }
  }
}
