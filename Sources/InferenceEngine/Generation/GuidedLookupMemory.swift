/// What prompt lookup learns during one guided generation (see `DecodeSteps.draft`): how the
/// model ends a value, which guesses it refused where, and what tokens compare by.
struct GuidedLookupMemory {
  /// The tokens the model chose before forced text, with how often and when last: under a
  /// constraint, how it ends a value (`","` before the next key).
  private var closerUses: [Token: (count: Int, last: Int)] = [:]
  /// Whether the token taken last was forced.
  private var tookForced = false
  /// `key(of:model:)`'s answers so far.
  private var keys: [Token: Token] = [:]
  /// The prompt's keys, once read (`keys(ofPrompt:model:)`).
  private var promptKeys: [Token]?
  /// Guesses the model refused, each after the key of the token before it (`[key, guess]`).
  private var refused: Set<[Token]> = []

  /// Notes that `token` was taken after `previous` (nil at the output's start), forced or chosen
  /// by the model, the `position`th token of the output.
  mutating func took(_ token: Token, forced: Bool, after previous: Token?, position: Int) {
    if forced, !tookForced, let chosen = previous {
      closerUses[chosen] = ((closerUses[chosen]?.count ?? 0) + 1, position)
    }
    tookForced = forced
  }

  /// The tokens that ended a value, the most used first, then the most recent: a string's end
  /// before the next key is the common one, an array's or a number's the rarer.
  var closers: [Token] {
    closerUses.sorted { ($0.value.count, $0.value.last) > ($1.value.count, $1.value.last) }.map(\.key)
  }

  /// What prompt lookup compares `token` by: the token of its text without a leading space
  /// where there is one. A value copied from a text begins after a quote where the text has a
  /// space (`"June` against ` June`); compared so, its first token finds the text it comes from.
  mutating func key(of token: Token, model: any TokenModel) -> Token {
    if let key = keys[token] { return key }
    let piece = model.piece(of: token)
    var key = token
    if piece.count > 1, piece[0] == UInt8(ascii: " "), let text = String(validating: piece.dropFirst(), as: UTF8.self) {
      let rest = model.tokenize(text, parseSpecial: false)
      if rest.count == 1 { key = rest[0] }
    }
    keys[token] = key
    return key
  }

  /// The key of each token of `prompt`, the generation's prompt: read once, not on every draft.
  mutating func keys(ofPrompt prompt: [Token], model: any TokenModel) -> [Token] {
    if let promptKeys { return promptKeys }
    let read = prompt.map { key(of: $0, model: model) }
    promptKeys = read
    return read
  }

  /// Notes that the model refused `guess` after `previous`: it is not proposed there again.
  mutating func refuse(_ guess: Token, after previous: Token, model: any TokenModel) {
    refused.insert([key(of: previous, model: model), guess])
  }

  /// Whether the model refused `guess` after a token whose key is `key`.
  func refused(_ guess: Token, afterKey key: Token) -> Bool { refused.contains([key, guess]) }
}
