/// The slots (sequences) of a shared context and what each one's cache holds: which slot a
/// request gets, without locks or llama.cpp, so it can be tested on its own.
///
/// A request whose prompt begins with most of what a free slot holds (a conversation's next
/// turn, or a one-shot request with the same long instructions) gets the free slot with the
/// longest such prefix, and evaluates only the rest. Otherwise it gets the free slot used
/// least recently (an empty one first), whose cache is the least likely to be wanted again.
/// "Most" is at least half of what the slot holds, or all of the slot's last prompt (its
/// tokens up to the last part boundary): a new conversation that shares only a short system
/// prompt with a slot would save those few tokens and throw away a whole conversation that may
/// return, while the same request sent again (a client's retry, a benchmark's next round)
/// begins with the slot's whole prompt, however long the reply the slot also holds.
///
/// Among free slots equal by that measure, one next to a busy slot goes first, then the least
/// recently used: llama.cpp decodes the rows of consecutive slots as one ubatch and starts
/// another at every gap (see `BatchScheduler.decode`), so running requests on scattered slots
/// would read all the weights once per run of them in every decode.
///
/// A new conversation that shares a prefix with a slot it does not take (the same system prompt and
/// tools as another conversation, running or not) gets that prefix copied into the slot it takes
/// (`Taken.copiedFrom`), when the prefix is at least `shortestCopiedPrefix` tokens longer than what
/// the taken slot shares, and the other conversation keeps its slot whole. llama.cpp copies a
/// slot's whole cache whatever the prefix, so the copy costs a memory copy of the slot against a
/// forward pass per token saved; estimated from memory bandwidth and a 2-core CPU's prefill rate,
/// even a large slot's copy costs fewer tokens' evaluation than the threshold (the estimate is in
/// docs/BATCHING.md).
///
/// A slot taken for another conversation keeps what it held in host memory (`Taken.saved`, at
/// least `shortestSavedTail` tokens past what the new request shares with it), up to
/// `savedTokenLimit` tokens in all, the longest unused dropped first; a request that finds more
/// of its prompt there than in any slot gets it restored into the slot it takes
/// (`Taken.restoredFrom`). With more conversations than slots, as a team's agents are, a
/// conversation whose slot was lent evaluates only its new input when it returns.
struct SlotTable {
  /// A slot given to a request.
  struct Taken: Equatable {
    let index: Int
    /// What the slot's cache holds for the request: after a copy, the copied prefix.
    let tokens: [Token]
    let boundaries: PartBoundaries
    /// The slot whose cache is copied into this one before anything else touches it (the
    /// whole cache; the request's first evaluation drops what follows `tokens`): a free slot,
    /// or a busy one whose request keeps `tokens`.
    let copiedFrom: Int?
    /// The id of the saved prefix that what the slot held goes to, before anything else touches it.
    var saved: Int? = nil
    /// The saved prefix restored into the slot (after the save, in place of a copy).
    var restoredFrom: Int? = nil
    /// Saved prefixes dropped to keep within `savedTokenLimit`, after the restore.
    var dropped: [Int] = []
  }

  /// A slot's cache kept in host memory.
  struct SavedPrefix {
    let id: Int
    let tokens: [Token]
    let boundaries: PartBoundaries
    var lastUsed: Int
  }

  /// The fewest tokens a slot taken for another request must hold past what that request
  /// shares with it for them to be saved: fewer are cheaper to evaluate again than to keep.
  static let shortestSavedTail = 64

  /// The fewest tokens a copy must add to what the taken slot already shares with the prompt.
  static let shortestCopiedPrefix = 16

  /// One slot's state.
  struct Slot {
    /// The tokens its cache holds, from position 0; while busy, only the prefix its request
    /// keeps (see `take(for:)`).
    var tokens: [Token] = []
    var boundaries = PartBoundaries()
    var isBusy = false
    /// When it was last taken (a counter); 0 for never.
    var lastUsed = 0
  }

  private(set) var slots: [Slot]
  private var clock = 0
  /// Caches of slots taken for other requests, oldest first.
  private(set) var saved: [SavedPrefix] = []
  private var nextSavedID = 0
  /// The most tokens the saved prefixes hold together; 0 saves none.
  let savedTokenLimit: Int

  init(count: Int, savedTokenLimit: Int = 0) {
    slots = Array(repeating: Slot(), count: count)
    self.savedTokenLimit = savedTokenLimit
  }

  /// Slots running a request now.
  var busyCount: Int { slots.count { $0.isBusy } }

  /// Slots free now.
  var freeCount: Int { slots.count - busyCount }

  /// The free slot `prompt` should run on, or nil when every slot is busy.
  func choice(for prompt: [Token]) -> Int? {
    let free = slots.indices.filter { !slots[$0].isBusy }
    let common = free.map { index in
      let slot = slots[index]
      let common = DecodeSteps.commonPrefixLength(slot.tokens, prompt)
      let lastPrompt = min(slot.boundaries.last, slot.tokens.count)
      return 2 * common >= slot.tokens.count || (lastPrompt > 0 && common >= lastPrompt) ? common : 0
    }
    guard let longest = common.max() else { return nil }
    // Among equals (no prefix in common, or the same one): next to a busy slot, then the least
    // recently used.
    let rank = { (index: Int) in (self.isNextToBusy(index) ? 0 : 1, self.slots[index].lastUsed) }
    return zip(free, common).filter { $0.1 == longest }.map(\.0).min { rank($0) < rank($1) }
  }

  private func isNextToBusy(_ index: Int) -> Bool {
    (index > 0 && slots[index - 1].isBusy) || (index + 1 < slots.count && slots[index + 1].isBusy)
  }

  /// Takes the slot `choice(for:)` gives, if any, with a copy of another slot's longer prefix
  /// where one is worth it (`shortestCopiedPrefix`).
  ///
  /// A busy slot is a source for the prefix its request reuses: the request evaluates after
  /// that prefix and never changes it (a prompt reuses at most all but its last token, see
  /// `DecodeSteps.promptPlan`), so while busy a slot's `tokens` are that prefix.
  mutating func take(for prompt: [Token]) -> Taken? {
    guard let index = choice(for: prompt) else { return nil }
    clock += 1
    slots[index].isBusy = true
    slots[index].lastUsed = clock
    var shared = DecodeSteps.commonPrefixLength(slots[index].tokens, prompt)
    let source = slots.indices.filter { $0 != index }
      .map { ($0, DecodeSteps.commonPrefixLength(slots[$0].tokens, prompt)) }
      .max { $0.1 < $1.1 }
    let kept = saved.indices.map { ($0, DecodeSteps.commonPrefixLength(saved[$0].tokens, prompt)) }.max { $0.1 < $1.1 }
    var taken = Taken(index: index, tokens: slots[index].tokens, boundaries: slots[index].boundaries, copiedFrom: nil)
    let held = slots[index]
    if let (position, common) = kept, common >= max(shared, source?.1 ?? 0) + Self.shortestCopiedPrefix {
      clock += 1
      saved[position].lastUsed = clock
      var boundaries = saved[position].boundaries
      boundaries.truncate(to: common)
      taken = Taken(
        index: index, tokens: Array(saved[position].tokens.prefix(common)), boundaries: boundaries, copiedFrom: nil,
        restoredFrom: saved[position].id)
      shared = common
    } else if let (from, common) = source, common >= shared + Self.shortestCopiedPrefix {
      var boundaries = slots[from].boundaries
      boundaries.truncate(to: common)
      taken = Taken(
        index: index, tokens: Array(slots[from].tokens.prefix(common)), boundaries: boundaries, copiedFrom: from)
      shared = common
    }
    save(held, past: DecodeSteps.commonPrefixLength(held.tokens, prompt), into: &taken)
    // What the request keeps of the cache while it runs.
    let reused = min(shared, max(prompt.count - 1, 0))
    slots[index].tokens = Array(taken.tokens.prefix(reused))
    slots[index].boundaries = taken.boundaries
    slots[index].boundaries.truncate(to: reused)
    return taken
  }

  /// Saves what slot `held` holds, where the request that takes it keeps only `common` tokens of
  /// it and the rest is long enough to keep (`shortestSavedTail`) and fits `savedTokenLimit`;
  /// drops the saved prefixes it holds whole, then the longest unused past the limit.
  private mutating func save(_ held: Slot, past common: Int, into taken: inout Taken) {
    guard held.tokens.count - common >= Self.shortestSavedTail, held.tokens.count <= savedTokenLimit,
      !saved.contains(where: { $0.tokens.starts(with: held.tokens) })
    else { return }
    clock += 1
    let prefix = SavedPrefix(id: nextSavedID, tokens: held.tokens, boundaries: held.boundaries, lastUsed: clock)
    nextSavedID += 1
    taken.saved = prefix.id
    var dropped = saved.filter { held.tokens.starts(with: $0.tokens) && $0.id != taken.restoredFrom }
    saved.removeAll { old in dropped.contains { $0.id == old.id } }
    saved.append(prefix)
    while saved.reduce(0, { $0 + $1.tokens.count }) > savedTokenLimit {
      guard let oldest = saved.filter({ $0.id != taken.restoredFrom }).min(by: { $0.lastUsed < $1.lastUsed }) else {
        break
      }
      dropped.append(oldest)
      saved.removeAll { $0.id == oldest.id }
    }
    taken.dropped = dropped.map(\.id)
  }

  /// Gives slot `index` back, its cache holding `tokens` evaluated up to `boundaries`.
  mutating func release(_ index: Int, tokens: [Token], boundaries: PartBoundaries) {
    slots[index] = Slot(tokens: tokens, boundaries: boundaries, isBusy: false, lastUsed: slots[index].lastUsed)
  }
}
