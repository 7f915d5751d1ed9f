/// Whether a draft model's guesses make a generation faster, measured as it runs: windows of
/// generated tokens with its guesses and without are timed, and the faster way goes on.
///
/// Why measured: a guess costs a forward pass of the draft model, and what that pass costs
/// against the generating model's depends on the pair and the machine. On a CPU of few cores a
/// draft model a third of the size runs at more than half the speed (`qwen2.5-coder-0.5b`
/// against `-1.5b`: 58 and 35 tokens/s on 2 cores), and extra rows in the model's pass cost
/// nearly as much as tokens, so even guesses confirmed two times in three slow it down; where
/// rows are nearly free (a GPU), the same guesses speed it up. Lookup's guesses, which cost no
/// pass, are not part of the trial.
struct DraftModelTrial {
  /// Generated tokens per timed window.
  static let window = 8
  /// Windows that go the faster way before both ways are timed again: first `settledWindows`,
  /// twice as many each time the same way wins again, up to `longestSettled`.
  static let settledWindows = 8
  static let longestSettled = 64

  /// Whether each coming window guesses with the draft model; both ways are timed first.
  private var plan: [Bool] = [true, false]
  /// The last rate measured each way, in tokens per second.
  private(set) var rateWith: Double?
  private(set) var rateWithout: Double?
  /// The generated-token count where the current window began, and its seconds so far.
  private var windowStart = 0
  private var seconds = 0.0
  /// The way that won last, and how many windows it goes on before the next timing.
  private var winner: Bool?
  private var settled = settledWindows

  /// Whether the draft model guesses in the current window.
  var usesModel: Bool { plan.first ?? true }

  /// Adds `elapsed` seconds, those of the step that brought the generated tokens to
  /// `generated`; closes the window once it holds `window` tokens and chooses the next.
  mutating func record(seconds elapsed: Double, generated: Int) {
    seconds += elapsed
    let tokens = generated - windowStart
    guard tokens >= Self.window else { return }
    let rate = seconds > 0 ? Double(tokens) / seconds : .infinity
    if usesModel { rateWith = rate } else { rateWithout = rate }
    windowStart = generated
    seconds = 0
    plan.removeFirst()
    guard plan.isEmpty else { return }
    let faster = (rateWith ?? 0) > (rateWithout ?? 0)
    settled = faster == winner ? min(settled * 2, Self.longestSettled) : Self.settledWindows
    winner = faster
    plan = Array(repeating: faster, count: settled) + [true, false]
  }
}
