/// Spots a generation caught in a loop: the last tokens repeating one block over and over.
///
/// Small models under a constraint fall into loops that JSON cannot stop: a string that
/// repeats a phrase until the context is full, an array that repeats its last item. The
/// detector follows the accepted tokens and reports a loop once some block of at most
/// `maximumPeriod` tokens has come back so often that the repetition covers `minimumRun`
/// tokens and at least two repeats of the block after its first appearance. Why so many: a
/// real value may repeat a word or an item a few times; 32 tokens of exact repetition is a
/// loop, not content.
///
/// Per token the work is one comparison per period (each period keeps its current run), so it
/// does not grow with the output.
struct RepetitionDetector: Sendable, Equatable {
  /// The longest block looked for, by default.
  static let defaultMaximumPeriod = 48
  /// Tokens of exact repetition that make a loop.
  var minimumRun: Int
  /// The longest block looked for.
  let maximumPeriod: Int

  /// The latest tokens, oldest first, with the nesting depth after each (bounded).
  private(set) var tokens: [Int32] = []
  private(set) var depths: [Int32] = []
  /// `runs[p - 1]`: how many latest tokens equal the token `p` places before them.
  private var runs: [Int32]

  init(minimumRun: Int, maximumPeriod: Int = defaultMaximumPeriod) {
    self.minimumRun = minimumRun
    self.maximumPeriod = maximumPeriod
    runs = [Int32](repeating: 0, count: maximumPeriod)
  }

  private var capacity: Int { minimumRun + 3 * maximumPeriod }

  /// A loop found: the latest `span` tokens repeat a block of `period` tokens; `depth` is the
  /// shallowest nesting among them, the level of the container the loop runs in.
  struct Loop: Equatable {
    var period: Int
    var span: Int
    var depth: Int
  }

  /// Records a token and the nesting depth after it.
  /// - Returns: the loop the latest tokens form, if any.
  mutating func append(_ token: Int, depth: Int) -> Loop? {
    tokens.append(Int32(truncatingIfNeeded: token))
    depths.append(Int32(depth))
    if tokens.count > capacity {
      tokens.removeFirst(tokens.count - capacity)
      depths.removeFirst(depths.count - capacity)
    }
    let last = tokens.count - 1
    var found: Loop?
    for p in 1...maximumPeriod {
      if last - p >= 0, tokens[last] == tokens[last - p] {
        runs[p - 1] += 1
      } else {
        runs[p - 1] = 0
      }
      let run = Int(runs[p - 1])
      if found == nil, run >= max(minimumRun, 2 * p) {
        let span = min(run + p, tokens.count)
        found = Loop(period: p, span: span, depth: Int(depths.suffix(span).min() ?? 0))
      }
    }
    return found
  }

  /// Forgets everything (after a loop has been ended).
  mutating func reset() {
    tokens.removeAll(keepingCapacity: true)
    depths.removeAll(keepingCapacity: true)
    for i in runs.indices { runs[i] = 0 }
  }

  /// Puts `token` in place of the latest one (a forced token the model replaced by a longer
  /// one that begins with it), at the same depth.
  mutating func replaceLast(by token: Int, depth: Int) {
    guard !tokens.isEmpty else { return }
    tokens[tokens.count - 1] = Int32(truncatingIfNeeded: token)
    depths[depths.count - 1] = Int32(depth)
    // The runs ending here may change; recount them from the stored tokens.
    let last = tokens.count - 1
    for p in 1...maximumPeriod {
      var run: Int32 = 0
      var i = last
      while i - p >= 0, tokens[i] == tokens[i - p] {
        run += 1
        i -= 1
      }
      runs[p - 1] = run
    }
  }
}
