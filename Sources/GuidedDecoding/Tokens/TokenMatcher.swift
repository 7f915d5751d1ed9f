/// Matches a generation token by token against a `ConstraintAutomaton`: which tokens of the
/// vocabulary may come next (a `TokenMask`), advancing by sampled tokens, forced text and
/// closing text.
///
/// The decode loop's constraint (FoundationModels' `SchemaConstraint`) wraps one.
///
/// One instance follows one generation. Masks are cached per automaton state, so repeated
/// states (inside a long free string, say) cost a dictionary lookup.
///
/// Loops are stopped: once the accepted tokens repeat one block for `loopRun` tokens (a
/// phrase said again and again, an item repeated), or repeat one block with only its numbers
/// changing for four times as long (`LoopWatch`), the value the loop runs in — the string,
/// array, object or number (`1000000…`) open at the loop's shallowest level — may only end:
/// wherever a token that ends it is allowed, only such tokens are, and no token may pass
/// through that level and go on (`"},{"` inside an item). Nothing else changes, so a value
/// that must go on (an array short of `minItems`) goes on.
/// Not thread-safe.
public final class TokenMatcher {
  public let automaton: ConstraintAutomaton
  public let vocabulary: Vocabulary
  /// The automaton state after everything accepted so far.
  public private(set) var state: ConstraintAutomaton.State
  /// Whether an end-of-sequence token has been accepted.
  public private(set) var hasEnded = false
  private var maskCache: [Int32: TokenMask] = [:]
  /// `extensions(of:)` by state and token.
  private var extensionCache: [Int64: [Int]] = [:]
  private var depthStates: [Int32]
  private var repetition: LoopWatch?
  /// The loop being ended: the nesting depth of the value it runs in and the byte that ends it.
  private var loop: Loop?

  fileprivate struct Loop: Sendable, Equatable {
    var depth: Int
    var end: ConstraintAutomaton.ValueEnd
  }

  /// Most masks kept; each costs `vocabulary.count / 8` bytes.
  public var maskCacheLimit = 1024

  /// Tokens of exact repetition after which a loop is ended, by default.
  public static let defaultLoopRun = 64

  /// Digits after which a number may only end, where loops are stopped.
  ///
  /// Why 20: no Swift `Int` or `UInt64` holds more, and a `Double` keeps 17 significant digits; a
  /// small model that writes `1000000…` otherwise goes on until the budget or the context runs out.
  public static let maximumNumberDigits = 20

  /// - Parameter loopRun: tokens of exact repetition after which the value a loop runs in
  ///   may only end (a repetition in which only numbers change must run four times as long);
  ///   nil never stops loops (the output is then the schema's language alone).
  public init(automaton: ConstraintAutomaton, vocabulary: Vocabulary, loopRun: Int? = defaultLoopRun) {
    self.automaton = automaton
    self.vocabulary = vocabulary
    self.state = automaton.initialState
    self.depthStates = [Int32](repeating: 0, count: vocabulary.maxDepth + 2)
    self.repetition = loopRun.map { LoopWatch(minimumRun: $0) }
  }

  /// Starts over at the beginning of the output (keeps caches).
  public func reset() {
    state = automaton.initialState
    hasEnded = false
    repetition?.reset()
    loop = nil
  }

  /// Where the constraint stands: `restore(_:)` returns to it (to try tokens and take them back).
  public struct Snapshot: Sendable, Equatable {
    fileprivate let state: ConstraintAutomaton.State
    fileprivate let hasEnded: Bool
    fileprivate let repetition: LoopWatch?
    fileprivate let loop: Loop?
  }

  public func snapshot() -> Snapshot { Snapshot(state: state, hasEnded: hasEnded, repetition: repetition, loop: loop) }

  public func restore(_ snapshot: Snapshot) {
    state = snapshot.state
    hasEnded = snapshot.hasEnded
    repetition = snapshot.repetition
    loop = snapshot.loop
  }

  /// Whether a loop is being ended (diagnostics and tests).
  public var isEndingLoop: Bool { loop != nil }

  /// The tokens that end the looping value, when the state is where it can end and some
  /// allowed token does; nil when no restriction applies.
  private func loopEnding(_ mask: TokenMask) -> TokenMask? {
    loop.flatMap { ending(mask, of: $0) }
  }

  /// The tokens of `mask` that end the value `loop` runs in, when the state stands in that
  /// value and some of them do; nil otherwise.
  private func ending(_ mask: TokenMask, of loop: Loop) -> TokenMask? {
    guard automaton.depth(of: state) == loop.depth, automaton.valueEnd(of: state, atDepth: loop.depth) == loop.end
    else { return nil }
    let enders: TokenMask?
    switch loop.end {
    case .closer(let byte): enders = vocabulary.closerMasks[byte]
    case .number: enders = vocabulary.numberEndMask
    }
    guard let enders else { return nil }
    var ending = mask
    ending.formIntersection(enders)
    return ending.isEmpty ? nil : ending
  }

  /// While a loop is being ended from inside one of its members, the tokens that would pass
  /// through the looping value's level and go on there where it could have ended, left out:
  /// `"},{"` ends an item and opens the next in one token, and after a number a lone `,` ends
  /// the number and goes on in one byte, so the state never rests where `loopEnding` applies.
  ///
  /// Nil when no such token is allowed, or when the state is not deeper.
  ///
  /// Why only tokens with a comma are tried: at an array's or object's level, after a member,
  /// the only way on is `,`.
  private func passingOver(_ mask: TokenMask, loop: Loop) -> TokenMask? {
    guard automaton.depth(of: state) > loop.depth else { return nil }
    var candidates = mask
    candidates.formIntersection(vocabulary.commaMask)
    var kept = mask
    var changed = false
    for token in candidates.allowedTokens where passesOver(token, loop) {
      kept.remove(token)
      changed = true
    }
    return changed && !kept.isEmpty ? kept : nil
  }

  /// Whether one of `token`'s bytes is a `,` where the closer could have ended the looping
  /// value instead: the `,` of `"},{"` after an item, or a lone `,` after a number, which ends
  /// the number and the item in the same byte.
  private func passesOver(_ token: Int, _ loop: Loop) -> Bool {
    guard case .closer(let closer) = loop.end else { return false }
    var s = state
    for byte in vocabulary.tokens[token] {
      guard let next = automaton.next(s, byte) else { return false }
      if byte == UInt8(ascii: ","), let closed = automaton.next(s, closer),
        automaton.depth(of: closed) < loop.depth
      {
        return true
      }
      s = next
      if automaton.depth(of: s) < loop.depth { return false }
    }
    return false
  }

  /// Records an accepted token for loop detection, and ends a loop once its value closed.
  /// - Parameter depth: the shallowest nesting the token's bytes passed through (`"," ` closes
  ///   an array item and opens the next: it passes through the array's level).
  private func noteAccepted(_ token: Int, depth: Int, replacingLast: Bool = false) {
    guard repetition != nil else { return }
    let shape = vocabulary.numberShapes[token]
    repetition?.countDigits(shape: shape, length: vocabulary.tokens[token].count, replacingLast: replacingLast)
    if let current = loop {
      if depth < current.depth {
        loop = nil
        repetition?.reset()
      }
      return
    }
    if replacingLast {
      repetition?.replaceLast(by: token, shape: shape, depth: depth)
      return
    }
    guard let found = repetition?.append(token, shape: shape, depth: depth), found.depth > 0,
      let end = automaton.valueEnd(of: state, atDepth: found.depth)
    else { return }
    loop = Loop(depth: found.depth, end: end)
  }

  /// Whether the output so far is a complete value (end of sequence is allowed).
  public var isComplete: Bool { !hasEnded && automaton.isComplete(state) }

  /// The tokens allowed next: text tokens whose bytes keep the output valid, plus the
  /// end-of-sequence tokens when the value is complete.
  /// - Parameter cached: use and fill the per-state mask cache (turn off to measure the
  ///   full computation).
  public func allowedTokens(cached: Bool = true) -> TokenMask {
    let mask = schemaMask(cached: cached)
    if isNumberTooLong, let ending = numberEnding(mask) { return ending }
    guard let loop else { return mask }
    return loopEnding(mask) ?? passingOver(mask, loop: loop) ?? mask
  }

  /// Whether the number being written has more than `maximumNumberDigits` digits (strings'
  /// digits are counted too; `numberEnding` tells them apart).
  private var isNumberTooLong: Bool { (repetition?.numberDigits ?? 0) > Self.maximumNumberDigits }

  /// The tokens of `allowed` (`allowedTokens()`) that end the number open in the output (`,`,
  /// `]`, `}` or the end of the output), when a number is open and may end here; nil otherwise.
  public func numberEndingTokens(among allowed: TokenMask) -> TokenMask? {
    numberEnding(allowed)
  }

  /// The tokens that end the number open in the output, when one is open and some allowed
  /// token ends it; nil otherwise.
  private func numberEnding(_ mask: TokenMask) -> TokenMask? {
    ending(mask, of: Loop(depth: automaton.depth(of: state), end: .number))
  }

  /// The tokens the schema allows, loops aside.
  private func schemaMask(cached: Bool = true) -> TokenMask {
    if hasEnded { return TokenMask(count: vocabulary.count) }
    guard cached else { return computeMask(state.id) }
    if let hit = maskCache[state.id] { return hit }
    let mask = computeMask(state.id)
    if maskCache.count >= maskCacheLimit { maskCache.removeAll(keepingCapacity: true) }
    maskCache[state.id] = mask
    return mask
  }

  private func computeMask(_ start: Int32) -> TokenMask {
    var mask: TokenMask
    var walks: [(TokenTrie, Int32)]
    if let split = automaton.plainSplit(ConstraintAutomaton.State(id: start)) {
      // Inside a string every plain token that fits is allowed; walk only the others, and
      // walk everything for the stacks that are not inside such a string.
      mask = vocabulary.plainMasks[min(split.limit, vocabulary.plainMasks.count - 1)]
      walks = [(vocabulary.nonPlainTrie, start)]
      if let rest = split.rest { walks.append((vocabulary.trie, rest.id)) }
    } else {
      mask = TokenMask(count: vocabulary.count)
      walks = [(vocabulary.trie, start)]
    }
    mask.withMutableWords { words in
      depthStates.withUnsafeMutableBufferPointer { scratch in
        for (trie, from) in walks {
          trie.walk(from: from, automaton: automaton, words: words, scratch: scratch)
        }
      }
    }
    if automaton.isComplete(ConstraintAutomaton.State(id: start)) {
      for t in vocabulary.endOfSequenceTokens { mask.insert(t) }
    }
    return mask
  }

  /// Whether `token` may come next (without building a mask).
  public func allows(token: Int) -> Bool {
    guard !hasEnded, token >= 0, token < vocabulary.count else { return false }
    if loop != nil || isNumberTooLong { return allowedTokens().contains(token) }
    switch vocabulary.kinds[token] {
    case 2: return automaton.isComplete(state)
    case 1: return false
    default: return automaton.next(state, bytes: vocabulary.tokens[token]) != nil
    }
  }

  /// Advances by a sampled token.
  /// - Throws: `ConstraintError.tokenNotAllowed` (the state is unchanged).
  public func accept(token: Int) throws {
    guard allows(token: token) else { throw ConstraintError.tokenNotAllowed(token) }
    if vocabulary.kinds[token] == 2 {
      hasEnded = true
      return
    }
    advance(by: vocabulary.tokens[token][...], token: token)
  }

  /// Moves the state past `bytes`, already checked, and records `token` for loop detection.
  private func advance(by bytes: ArraySlice<UInt8>, token: Int, replacingLast: Bool = false) {
    var depth = replacingLast ? automaton.level(of: state) : Int.max
    if repetition == nil {
      if let next = automaton.next(state, bytes: bytes) { state = next }
      return
    }
    for byte in bytes {
      guard let next = automaton.next(state, byte) else { return }
      state = next
      depth = min(depth, automaton.level(of: state))
    }
    noteAccepted(token, depth: depth, replacingLast: replacingLast)
  }

  /// Advances by raw bytes (forced or closing text, tokenized by the caller).
  /// - Throws: `ConstraintError.bytesNotAllowed` (the state is unchanged).
  public func accept(bytes: some Sequence<UInt8>) throws {
    let bytes = Array(bytes)
    guard !hasEnded, let next = automaton.next(state, bytes: bytes) else {
      throw ConstraintError.bytesNotAllowed(bytes)
    }
    state = next
    // Forced text between two numbers (`,"price":`) ends the first one's digits.
    repetition?.countDigits(shape: NumberShape(bytes), length: bytes.count)
  }

  /// The tokens longer than `token` that begin with its bytes and whose remaining bytes are
  /// allowed from the current state, which is the state after `token`: the tokens a model
  /// could have written in place of `token` and the start of what follows it.
  ///
  /// Why: forced text is tokenized on its own, but its last token may be one the model would
  /// have merged with what comes next (Qwen writes `":[{"` as one token). Offering these lets
  /// the model choose at that position as if the text had not been forced.
  public func extensions(of token: Int) -> [Int] {
    guard !hasEnded, vocabulary.kinds.indices.contains(token), vocabulary.kinds[token] == 0 else { return [] }
    let key = Int64(state.id) << 32 | Int64(token)
    if let hit = extensionCache[key] { return hit }
    var found: [Int] = []
    if let node = vocabulary.trie.node(spelling: vocabulary.tokens[token]) {
      var mask = TokenMask(count: vocabulary.count)
      mask.withMutableWords { words in
        depthStates.withUnsafeMutableBufferPointer { scratch in
          vocabulary.trie.walk(from: state.id, below: node, automaton: automaton, words: words, scratch: scratch)
        }
      }
      found = mask.allowedTokens
    }
    if extensionCache.count >= maskCacheLimit { extensionCache.removeAll(keepingCapacity: true) }
    extensionCache[key] = found
    return found
  }

  /// Advances from the state after `token` as if `longer`, one of its `extensions`, had been
  /// accepted in its place.
  /// - Throws: `ConstraintError.tokenNotAllowed` when `longer` is not an extension of `token`
  ///   here (the state is unchanged).
  public func acceptExtension(of token: Int, by longer: Int) throws {
    guard vocabulary.tokens.indices.contains(token), vocabulary.tokens.indices.contains(longer) else {
      throw ConstraintError.tokenNotAllowed(longer)
    }
    let short = vocabulary.tokens[token]
    let long = vocabulary.tokens[longer]
    guard vocabulary.kinds[longer] == 0, long.count > short.count, long.starts(with: short),
      automaton.next(state, bytes: long[short.count...]) != nil
    else { throw ConstraintError.tokenNotAllowed(longer) }
    advance(by: long[short.count...], token: longer, replacingLast: true)
  }

  /// The bytes forced from here (jump-forward): emit them without sampling.
  public func forcedBytes() -> [UInt8] {
    hasEnded ? [] : automaton.forcedBytes(from: state)
  }

  /// A short completion that closes every open structure validly; its length in bytes is
  /// a safe upper bound on the tokens to reserve for closing.
  public func closingBytes() -> [UInt8]? {
    hasEnded ? [] : automaton.closingBytes(from: state)
  }

  /// The length of `closingBytes()` in bytes, an upper bound on the tokens it takes; cheap
  /// enough to ask on every token, however deep the output is nested.
  public func closingLength() -> Int? {
    hasEnded ? 0 : automaton.closingLength(from: state)
  }
}

/// A token or byte the constraint does not allow.
public enum ConstraintError: Error, Sendable, Equatable {
  case tokenNotAllowed(Int)
  case bytesNotAllowed([UInt8])
}
