/// The slots (sequences) of a shared context and what each one's cache holds: which slot a
/// request gets, without locks or llama.cpp, so it can be tested on its own.
///
/// A request whose prompt begins with what a free slot holds (a conversation's next turn, or
/// a new session with the same instructions) gets the free slot with the longest common
/// prefix, and evaluates only the rest; with no prefix in common anywhere, it gets the free
/// slot used least recently, whose cache is the least likely to be wanted again.
struct SlotTable {
  /// One slot's state.
  struct Slot {
    /// The tokens its cache holds, from position 0.
    var tokens: [Token] = []
    var boundaries = PartBoundaries()
    var isBusy = false
    /// When it was last taken (a counter); 0 for never.
    var lastUsed = 0
  }

  private(set) var slots: [Slot]
  private var clock = 0

  init(count: Int) {
    slots = Array(repeating: Slot(), count: count)
  }

  /// Slots running a request now.
  var busyCount: Int { slots.count { $0.isBusy } }

  /// The free slot `prompt` should run on, or nil when every slot is busy.
  func choice(for prompt: [Token]) -> Int? {
    let free = slots.indices.filter { !slots[$0].isBusy }
    let common = free.map { DecodeSteps.commonPrefixLength(slots[$0].tokens, prompt) }
    guard let longest = common.max() else { return nil }
    // Among equals (no prefix in common, or the same one), the least recently used.
    return zip(free, common).filter { $0.1 == longest }.min { slots[$0.0].lastUsed < slots[$1.0].lastUsed }?.0
  }

  /// Takes the slot `choice(for:)` gives, if any.
  /// - Returns: its index and what its cache holds.
  mutating func take(for prompt: [Token]) -> (index: Int, tokens: [Token], boundaries: PartBoundaries)? {
    guard let index = choice(for: prompt) else { return nil }
    clock += 1
    slots[index].isBusy = true
    slots[index].lastUsed = clock
    return (index, slots[index].tokens, slots[index].boundaries)
  }

  /// Gives slot `index` back, its cache holding `tokens` evaluated up to `boundaries`.
  mutating func release(_ index: Int, tokens: [Token], boundaries: PartBoundaries) {
    slots[index] = Slot(tokens: tokens, boundaries: boundaries, isBusy: false, lastUsed: slots[index].lastUsed)
  }
}
