/// When a generation drafts, and how many tokens (`DecodeSteps`), from how long a stretch of
/// the text so far its last tokens repeat and from how many of its drafts the model confirmed.
///
/// Why so choosy: a draft row is not free. On a CPU llama.cpp's kernels are bound by arithmetic
/// as well as by reading the weights, so each row adds to the decode, by how much depends on the
/// machine (`DecodeCosts`). A draft pays only when enough of it is confirmed, and how much will be
/// shows in the match: where the last 8 tokens or more occurred before, the answer is copying a
/// span (a rewritten file, an edited text), and long stretches of the continuation are confirmed;
/// where only 2 to 5 match (open text), little is (prompt lookup of the answers to
/// `bench/workloads`, simulated on them).
///
/// What the rules below propose is then cut to what pays on this machine (`worthEvaluating`):
/// each guess is confirmed with the chance guesses of its kind and place had in this generation
/// (`GuessOdds`), forced text surely, and of the draft's prefixes the one with the most tokens
/// expected per cost of its decode (`DecodeCosts`) is evaluated — the whole draft where rows
/// are cheap, a few tokens or none where they cost nearly what tokens do.
///
/// Under a constraint drafts are shorter and start on shorter matches (4 tokens: on 2 or 3 the
/// answers' values are confirmed about half the time, too seldom for a draft of 3): a JSON value
/// copied from a document is a few tokens, its keys are forced, and tokens the constraint allows
/// few of cost little. A match of any length whose every occurrence went on the same way (a
/// name or a date the document holds once) drafts all they agree on (`agreedLength`). Where
/// drafts keep being refused, the next ones are short (probes) until one is confirmed whole;
/// where too little of what was drafted is confirmed, drafting pauses, for longer each time
/// (open chat drafts next to nothing).
///
/// Without a constraint a shorter match (4 to 7 tokens) drafts a few tokens too (`shortLength`,
/// a decode of 4): where an edit broke a copied span, the copy goes on 4 tokens after it
/// instead of 8. What such a decode costs against one token's depends on the CPU (little more
/// where its kernels batch rows cheaply, several times more where arithmetic binds), so these
/// drafts go on only while so much of them is confirmed (`shortPayingShare`) that they pay
/// either way, and pause for longer each time they are not; they leave the long copies'
/// accounting alone.
///
/// A draft model (`Speculation.draft`) guesses where the text repeats nothing: its drafts
/// start at `firstModelLength` tokens, grow after one confirmed whole and shrink to one more
/// than what was confirmed otherwise (each of its guesses costs a decode of the draft model).
struct DraftPolicy {
  /// The shortest match that drafts: a copied span without a constraint, a value's start with one.
  static let copyMatch = 8
  static let guidedMatch = 4
  /// Without a constraint, the shortest match that drafts `shortLength` tokens.
  static let shortMatch = 4
  /// Draft lengths: a copied span's (a decode of 16 tokens with the sampled one), a guided
  /// value's, and a probe's after a refused draft.
  static let copyLength = 15
  static let guidedLength = 3
  static let probeLength = 3
  static let shortLength = 3
  /// The longest draft of a copied value (a decode of 8 tokens with the sampled one).
  static let agreedLength = 7
  /// Drafted tokens seen before drafting may pause, and the share of them that must be
  /// confirmed for it to go on.
  static let evidence = 24
  static let payingShare = 0.3
  /// Generated tokens without drafts after the first pause; each further pause doubles it.
  static let firstPause = 16
  static let longestPause = 256
  /// Short drafts (`shortMatch`): the tokens drafted before they may pause, the share of them
  /// that must be confirmed, and their first pause in generated tokens (doubling, up to
  /// `longestPause`).
  static let shortEvidence = 12
  static let shortPayingShare = 0.75
  static let firstShortPause = 64
  /// The draft model's first and longest drafts, and how much a draft confirmed whole adds.
  static let firstModelLength = 4
  static let longestModelLength = 8
  static let modelGrowth = 2

  let constrained: Bool
  /// Whether the last draft was mostly refused: the next are probes.
  private var probing = false
  /// When drafting goes on, and short drafts (`shortMatch`).
  private var pauses = Pauses(evidence: evidence, share: payingShare, firstPause: firstPause)
  private var shortPauses = Pauses(evidence: shortEvidence, share: shortPayingShare, firstPause: firstShortPause)
  /// The most tokens the draft model guesses next.
  private(set) var modelLength = firstModelLength
  /// How often guesses of each kind and place in a draft have been confirmed.
  var odds: GuessOdds

  init(constrained: Bool) {
    self.constrained = constrained
    odds = GuessOdds(pooled: !constrained)
  }

  /// The shortest match worth a draft.
  var shortestMatch: Int { constrained ? Self.guidedMatch : Self.copyMatch }

  /// Whether drafting goes on after `generated` tokens (it is not paused).
  func drafts(after generated: Int) -> Bool { pauses.allow(after: generated) }

  /// How many tokens to draft after `generated` tokens where the last `match` tokens occurred
  /// before; 0 for none.
  func length(after generated: Int, match: Int) -> Int {
    guard drafts(after: generated) else { return 0 }
    if isShort(match: match) { return shortPauses.allow(after: generated) ? Self.shortLength : 0 }
    guard match >= shortestMatch else { return 0 }
    if probing { return Self.probeLength }
    return match >= Self.copyMatch ? Self.copyLength : Self.guidedLength
  }

  /// How many tokens to draft after `generated` tokens where the copy of the text resumes near
  /// where the output copied it last (`CopyEdits.realign`) on a match of `match` tokens: a
  /// copied span's draft where the match is as long as a short draft's, a short one otherwise.
  func realignedLength(after generated: Int, match: Int) -> Int {
    guard drafts(after: generated) else { return 0 }
    if probing { return Self.probeLength }
    return match >= Self.shortMatch ? Self.copyLength : Self.shortLength
  }

  /// How many tokens to draft after `generated` tokens, under a constraint, where the last
  /// tokens occurred in the prompt and `agreed` tokens followed every occurrence; 0 for none.
  ///
  /// However short the match, a value copied from a document (a name, a date, an amount) goes
  /// on as the document does once its first token is one the document holds with one
  /// continuation. The output's own text is left out (its keys repeat, its values do not),
  /// and so is what follows a value in the document past `agreedLength`: a value is seldom
  /// longer, and a table's next column is text a string allows.
  func agreedLength(after generated: Int, agreed: Int) -> Int {
    guard constrained, drafts(after: generated) else { return 0 }
    return min(agreed, probing ? Self.probeLength : Self.agreedLength)
  }

  /// Whether a match drafts a short draft: without a constraint, one shorter than a copied span's.
  func isShort(match: Int) -> Bool {
    !constrained && match >= Self.shortMatch && match < Self.copyMatch
  }

  /// Learns from a draft of `drafted` tokens of which the model confirmed the first `confirmed`,
  /// guessed by the draft model where `byModel`, after a short match where `short`.
  mutating func record(
    drafted draftCount: Int, confirmed confirmedCount: Int, generated: Int, byModel: Bool = false, short: Bool = false
  ) {
    guard draftCount > 0 else { return }
    if short {
      shortPauses.record(drafted: draftCount, confirmed: confirmedCount, generated: generated)
      return
    }
    if byModel {
      modelLength =
        confirmedCount == draftCount
        ? min(modelLength + Self.modelGrowth, Self.longestModelLength) : confirmedCount + 1
    }
    if confirmedCount == draftCount {
      probing = false
    } else if 4 * confirmedCount < draftCount {
      probing = true
    }
    pauses.record(drafted: draftCount, confirmed: confirmedCount, generated: generated)
  }

  /// How many of `drafts` to evaluate after a batch of `rows` tokens: the prefix with the most
  /// tokens expected per cost of the decode, none where no prefix pays more than the batch alone.
  /// A draft that would end in forced text without a guess before it is not evaluated.
  func worthEvaluating(_ drafts: [DecodeSteps.Draft], after rows: Int, costs: DecodeCosts) -> Int {
    var best = 0
    // The batch's tokens are chosen (a sampled token, forced text after it): each is a token
    // the decode yields, drafts or not.
    var bestRate = Double(rows) / costs.ratio(rows: rows)
    // The chance that every draft so far is confirmed, and the tokens a decode then yields: the
    // batch's, the confirmed drafts, and the token chosen after the last of them.
    var reach = 1.0
    var expected = Double(rows)
    var guesses = 0
    for (index, draft) in drafts.enumerated() {
      if let guess = draft.guess {
        guesses = GuessOdds.beginsValue(drafts, at: index) ? 1 : guesses + 1
        reach *= odds.chance(of: guess, at: guesses)
      }
      expected += reach
      let rate = expected / costs.ratio(rows: rows + index + 1)
      if guesses > 0, rate > bestRate {
        best = index + 1
        bestRate = rate
      }
    }
    // A kind of guess none of which was evaluated in this generation has a presumed chance
    // only: its first guess is tried once, so a kind that the costs make look too dear before
    // its first confirmation (a draft model's) can show what it is worth.
    if best == 0, let first = drafts.firstIndex(where: { $0.guess != nil }), let guess = drafts[first].guess,
      !odds.hasBeenTried(guess)
    {
      return first + 1
    }
    return best
  }

  /// How many guesses to ask the draft model for (at most `length`) after `rows` rows (each a
  /// token the decode yields: the sampled one, forced text), where each guess costs a decode of
  /// the draft model, `guessCost` decodes of one row of the generating
  /// model (`DecodeCosts.oneRowSeconds` of each): the number with the most tokens expected per
  /// cost of the guesses and of the decode that verifies them, none where none pays more than
  /// the rows alone. Without costs, `length`.
  ///
  /// A draft model whose guesses were not tried yet in the generation guesses one, so what it
  /// is worth shows (`worthEvaluating` evaluates it), but only where trying could pay: where,
  /// if every guess were confirmed, the `remaining` tokens of the answer would save more than
  /// the try costs (`tryCost`, in the same units: the draft model's evaluation of the text it
  /// has not seen, the whole prompt at first). Where a guess costs nearly a token and rows are
  /// dear, it is never tried.
  ///
  /// Why planned from costs measured once rather than timed as the generation runs: which
  /// guesses a decode verifies must not depend on the machine's load (`DecodeCosts`).
  func modelGuesses(
    upTo length: Int, after rows: Int, costs: DecodeCosts?, guessCost: Double, remaining: Int,
    tryCost: @autoclosure () -> Double
  ) -> Int {
    guard let costs, length > 0 else { return length }
    let tried = odds.hasBeenTried(.model)
    var best = 0
    let baseRate = Double(rows) / costs.ratio(rows: rows)
    var bestRate = baseRate
    var reach = 1.0
    var expected = Double(rows)
    for place in 1...length {
      reach *= tried ? odds.chance(of: .model, at: place) : 1
      expected += reach
      let rate = expected / (costs.ratio(rows: rows + place) + guessCost * Double(place))
      if rate > bestRate {
        best = place
        bestRate = rate
      }
    }
    guard !tried else { return best }
    let saving = Double(remaining) * (1 / baseRate - 1 / bestRate)
    return best > 0 && saving > tryCost() ? 1 : 0
  }

  /// How likely a guess is confirmed where the guesses before it in its draft were, by its kind
  /// and its place among them, as this generation's drafts went: of the guesses of that kind
  /// and place the model reached, those it confirmed, with a prior of `priorWeight` guesses.
  ///
  /// The prior refuses a kind's first guess with `firstRefusal`, and the one at place n with a
  /// n-th of that: a copy that went on for some tokens mostly goes on for as many more (a
  /// copied span ends seldom, and where it went on long it is long). So a draft longer than
  /// any confirmed so far is still tried where the costs leave it a chance, and what it shows
  /// counts from then on. A guess after forced text (a key) begins a value: its place is the
  /// first again (`beginsValue`).
  ///
  /// Without a constraint (`pooled`) the places after the first share their counts: a copied
  /// text ends at an edit, wherever in a draft that falls, so one refusal at the sixth place
  /// says as much about the tenth. Counted by place, it would cut the drafts that follow to
  /// five guesses, and with no guess evaluated further on again, nothing would lengthen them.
  /// Under a constraint a value's length makes places differ, and they are counted apart.
  struct GuessOdds {
    static let priorWeight = 2.0
    /// The places counted: the most guesses in a draft.
    static let places = 32
    /// Guesses reached and refused, by kind and place (0 for the first).
    private var reached: [DecodeSteps.Guess: [Double]] = [:]
    private var refused: [DecodeSteps.Guess: [Double]] = [:]
    /// Whether the places after the first share their counts.
    let pooled: Bool

    init(pooled: Bool = false) {
      self.pooled = pooled
    }

    /// The chance a kind's first guess is refused: a copied span's least, a next value's most
    /// (where a document's values come in the order asked for, this is learnt soon).
    static func firstRefusal(of guess: DecodeSteps.Guess) -> Double {
      switch guess {
      case .copied: 0.1
      case .model: 0.3
      case .shortCopy, .realigned, .nearest, .spelled, .date, .closer, .presumed: 0.25
      case .nextValue: 0.5
      }
    }

    /// The chance that `guess`, the `place`-th guess of its draft (from 1), is confirmed where
    /// the guesses before it are.
    func chance(of guess: DecodeSteps.Guess, at place: Int) -> Double {
      let index = min(max(place, 1), Self.places) - 1
      let prior = Self.firstRefusal(of: guess) / Double(index + 1)
      let counted = pooled && index > 0 ? 1..<Self.places : index..<index + 1
      let seen = reached[guess]?[counted].reduce(0, +) ?? 0
      let no = refused[guess]?[counted].reduce(0, +) ?? 0
      return 1 - (no + prior * Self.priorWeight) / (seen + Self.priorWeight)
    }

    /// Whether the guess at `index` of `drafts` follows forced text (a key): it begins a value,
    /// and its place counts from there. Counted on from the guesses before the key, a value's
    /// first guess would have the odds of a copy going on, which it is not.
    static func beginsValue(_ drafts: [DecodeSteps.Draft], at index: Int) -> Bool {
      index > 0 && drafts[index - 1].forced
    }

    /// Whether a guess of this kind has been evaluated in the generation.
    func hasBeenTried(_ guess: DecodeSteps.Guess) -> Bool { (reached[guess]?[0] ?? 0) > 0 }

    /// Records the guesses of a draft of which the first `count` drafts were confirmed; the
    /// next one, where there is one, refused.
    mutating func record(_ drafts: [DecodeSteps.Draft], confirmed count: Int) {
      var place = 0
      for (index, draft) in drafts.prefix(count + 1).enumerated() {
        guard let guess = draft.guess else { continue }
        if Self.beginsValue(drafts, at: index) { place = 0 }
        let slot = min(place, Self.places - 1)
        place += 1
        reached[guess, default: Array(repeating: 0, count: Self.places)][slot] += 1
        if index == count { refused[guess, default: Array(repeating: 0, count: Self.places)][slot] += 1 }
      }
    }
  }

  /// Drafted and confirmed tokens of one kind of draft, and when drafting them goes on: where
  /// fewer than `share` of at least `evidence` drafted tokens are confirmed, it pauses for
  /// `firstPause` generated tokens, twice as long each time it pauses again (up to
  /// `longestPause`).
  struct Pauses {
    let evidence: Int
    let share: Double
    let firstPause: Int
    /// Drafted and confirmed tokens since drafting last paused or went on.
    private var drafted = 0
    private var confirmed = 0
    /// The generated-token count from which drafting goes on.
    private var resumesAt = 0
    private var pause: Int

    init(evidence: Int, share: Double, firstPause: Int) {
      self.evidence = evidence
      self.share = share
      self.firstPause = firstPause
      pause = firstPause
    }

    /// Whether drafting goes on after `generated` tokens.
    func allow(after generated: Int) -> Bool { generated >= resumesAt }

    mutating func record(drafted draftCount: Int, confirmed confirmedCount: Int, generated: Int) {
      drafted += draftCount
      confirmed += confirmedCount
      guard drafted >= evidence else { return }
      if Double(confirmed) < share * Double(drafted) {
        resumesAt = generated + pause
        pause = min(pause * 2, DraftPolicy.longestPause)
      } else {
        pause = firstPause
      }
      drafted = 0
      confirmed = 0
    }
  }
}
