import Testing

@testable import InferenceEngine

/// Which slot of a shared context a request gets (no model needed).
@Suite struct SlotTableTests {
  /// A returning conversation lands on the slot that holds its beginning; a new one on the
  /// least recently used slot, an empty one first, not on a slot it shares a few tokens with.
  @Test func aReturningConversationFindsItsSlot() throws {
    var table = SlotTable(count: 3)
    let system: [Token] = [1, 2, 3]
    let firstTaken = table.take(for: system + [10, 11])
    let first = try #require(firstTaken)
    table.release(first.index, tokens: system + [10, 11, 12, 13, 14, 15], boundaries: PartBoundaries())
    // Shares only the system prompt (3 of 9 tokens): an empty slot instead.
    let otherTaken = table.take(for: system + [20, 21])
    let other = try #require(otherTaken)
    #expect(other.index != first.index)
    #expect(other.tokens.isEmpty)
    table.release(other.index, tokens: system + [20, 21, 22], boundaries: PartBoundaries())
    let returningTaken = table.take(for: system + [10, 11, 12, 13, 14, 15, 16, 17])
    let returning = try #require(returningTaken)
    #expect(returning.index == first.index)
    #expect(returning.tokens == system + [10, 11, 12, 13, 14, 15])
  }

  /// A new conversation that shares a long prefix (a system prompt) with a free slot it does
  /// not take gets that prefix copied into the slot it takes; the other slot keeps its own.
  @Test func aNewConversationGetsASharedPrefixCopied() throws {
    var table = SlotTable(count: 3)
    let system = (1...20).map { Token($0) }
    let firstTaken = table.take(for: system + [100, 101])
    let first = try #require(firstTaken)
    #expect(first.copiedFrom == nil)
    var boundaries = PartBoundaries()
    boundaries.mark(system.count)
    boundaries.mark(system.count + 2)
    table.release(first.index, tokens: system + Array(100..<131), boundaries: boundaries)
    // The system prompt is 20 of the slot's 51 tokens: not the slot to take.
    let otherTaken = table.take(for: system + [200, 201])
    let other = try #require(otherTaken)
    #expect(other.index != first.index)
    #expect(other.copiedFrom == first.index)
    #expect(other.tokens == system)
    #expect(other.boundaries.positions == [0, system.count])
    // The source is untouched, and still found by its own conversation.
    #expect(table.slots[first.index].tokens == system + Array(100..<131))
    #expect(table.choice(for: system + Array(100..<135)) == first.index)
  }

  /// A busy slot is a source for what its request keeps (the prefix it reused), not for what
  /// it held before: the request writes over the rest.
  @Test func aBusySlotIsASourceForWhatItsRequestKeeps() throws {
    let system = (1...20).map { Token($0) }
    var table = SlotTable(count: 2)
    _ = table.take(for: system + [100])
    table.release(0, tokens: system + Array(100..<131), boundaries: PartBoundaries())
    let returningTaken = table.take(for: system + Array(100..<135))
    #expect(returningTaken?.index == 0)
    let besideTaken = table.take(for: system + [200])
    let beside = try #require(besideTaken)
    #expect(beside.index == 1 && beside.copiedFrom == 0 && beside.tokens == system)

    var other = SlotTable(count: 2)
    _ = other.take(for: [900])
    _ = other.take(for: system)
    other.release(1, tokens: system, boundaries: PartBoundaries())
    other.release(0, tokens: [900, 901], boundaries: PartBoundaries())
    // Slot 1 is taken by a request that keeps only 10 of its 20 tokens.
    let shortTaken = other.take(for: Array(system.prefix(10)) + [800])
    #expect(shortTaken?.index == 1)
    let newTaken = other.take(for: system + [700])
    #expect(newTaken?.index == 0 && newTaken?.copiedFrom == nil)
  }

  /// A prefix that adds fewer than `shortestCopiedPrefix` tokens to what the taken slot shares
  /// is evaluated, not copied.
  @Test func aShortPrefixIsNotCopied() throws {
    let system = (1...20).map { Token($0) }
    var short = SlotTable(count: 2)
    let prefix = Array(system.prefix(SlotTable.shortestCopiedPrefix - 1))
    _ = short.take(for: prefix + [100])
    short.release(0, tokens: prefix + Array(100..<140), boundaries: PartBoundaries())
    let newTaken = short.take(for: prefix + [200])
    let new = try #require(newTaken)
    #expect(new.index == 1 && new.copiedFrom == nil)
    // One token more is enough (slot 0, used least recently, is taken; slot 1 is copied).
    var exact = SlotTable(count: 2)
    let longer = Array(system.prefix(SlotTable.shortestCopiedPrefix))
    _ = exact.take(for: [900])
    _ = exact.take(for: longer + [100])
    exact.release(0, tokens: [900, 901], boundaries: PartBoundaries())
    exact.release(1, tokens: longer + Array(100..<140), boundaries: PartBoundaries())
    let copyTaken = exact.take(for: longer + [200])
    #expect(copyTaken?.index == 0 && copyTaken?.copiedFrom == 1)
  }

  /// The same prompt again finds the slot that answered it, whose cache also holds the reply:
  /// the new prompt begins with the slot's whole last prompt (up to its last part boundary).
  @Test func theSamePromptAgainFindsItsSlot() throws {
    var table = SlotTable(count: 2)
    let prompt: [Token] = [1, 2, 3, 4]
    let firstTaken = table.take(for: prompt)
    let first = try #require(firstTaken)
    var boundaries = PartBoundaries()
    boundaries.mark(prompt.count)
    table.release(first.index, tokens: prompt + Array(100..<120), boundaries: boundaries)
    #expect(table.choice(for: prompt) == first.index)
    // Without the boundary only the half rule is left, and the prompt is not half of it.
    table.release(first.index, tokens: prompt + Array(100..<120), boundaries: PartBoundaries())
    let other = try #require(table.choice(for: prompt))
    #expect(other != first.index)
  }

  /// With no prefix in common, the free slot used least recently is taken; with every slot
  /// busy, none.
  @Test func leastRecentlyUsedThenNone() throws {
    var table = SlotTable(count: 2)
    let aTaken = table.take(for: [1])
    let a = try #require(aTaken)
    let bTaken = table.take(for: [2])
    let b = try #require(bTaken)
    #expect(a.index != b.index)
    let none = table.take(for: [3])
    #expect(none == nil)
    #expect(table.busyCount == 2)
    table.release(b.index, tokens: [2, 5], boundaries: PartBoundaries())
    table.release(a.index, tokens: [1, 5], boundaries: PartBoundaries())
    // a was taken first, so it is the least recently used.
    #expect(table.choice(for: [9]) == a.index)
    #expect(table.choice(for: [2, 5, 6]) == b.index)
  }

  /// Among slots equal otherwise, one next to a busy slot goes before the least recently used,
  /// so that running requests keep to consecutive slots (one ubatch per run of them).
  @Test func aSlotNextToABusyOneGoesFirst() throws {
    var table = SlotTable(count: 6)
    for token in 1...6 { _ = table.take(for: [Token(token)]) }
    for index in 0..<6 { table.release(index, tokens: [Token(index + 1), 9], boundaries: PartBoundaries()) }
    // Slot 0 was used least recently; taken, its neighbour 1 goes next, then 2.
    #expect(table.take(for: [20])?.index == 0)
    #expect(table.take(for: [21])?.index == 1)
    #expect(table.take(for: [22])?.index == 2)
    table.release(1, tokens: [21, 9], boundaries: PartBoundaries())
    // Slots 1 and 3 are both next to a busy slot: the least recently used of them.
    #expect(table.choice(for: [23]) == 3)
    // A prefix still comes first.
    #expect(table.choice(for: [5, 9, 7]) == 4)
  }
}
