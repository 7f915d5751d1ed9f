/// What prompt lookup learns during one guided generation (see `DecodeSteps.draft`): how the
/// model ends a value, which guesses it refused where, what tokens compare by, where in the
/// document the output reads, and which forced tokens it writes longer.
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
  /// The prompt position after the text the output copied or wrote last: a document is mostly
  /// read in order, so of several places that go on differently, the one after it is likely
  /// the one the output copies.
  var cursor: Int?
  /// How far after the cursor the text it reads on is looked for.
  static let window = 48
  /// The longer token the model wrote in place of a forced one, the last time that one was
  /// forced (`DecodeSteps.heal`); absent where it kept the forced token.
  private var longerTokens: [Token: Token] = [:]
  /// Guesses the model refused, each after the key of the token before it (`[key, guess]`).
  private var refused: Set<[Token]> = []
  /// The prompt's text, once read (`spelled(prompt:model:)`).
  private var spelledPrompt: SpelledLookup?
  /// The quote token, once looked up (`isInString`); -1 where the vocabulary has none.
  private var quote: Token?
  /// The prompt's dates, once read (`dates(prompt:model:)`).
  private var promptDates: DocumentDates?
  /// The dates the output wrote in ISO 8601 form, read as far as its `outputRead`th token,
  /// whose last bytes `outputTail` holds (`isoDates(writtenIn:model:)`).
  private var isoDatesWritten: Set<[UInt8]> = []
  private var outputRead = 0
  private var outputTail: [UInt8] = []

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

  /// The lookup by text of `prompt`, the generation's prompt: read once, not on every draft.
  mutating func spelled(prompt: [Token], model: any TokenModel) -> SpelledLookup {
    if let spelledPrompt { return spelledPrompt }
    let read = SpelledLookup(prompt: prompt, model: model)
    spelledPrompt = read
    return read
  }

  /// The dates of `prompt`, the generation's prompt: read once, not on every draft.
  mutating func dates(prompt: [Token], model: any TokenModel) -> DocumentDates {
    if let promptDates { return promptDates }
    let read = DocumentDates(text: spelled(prompt: prompt, model: model).bytes)
    promptDates = read
    return read
  }

  /// The dates `output`, the generation's output so far (confirmed tokens only: it is read
  /// once), wrote as strings in ISO 8601 form (`"2025-03-14"`): read on from where it was read
  /// last.
  mutating func isoDates(writtenIn output: ArraySlice<Token>, model: any TokenModel) -> Set<[UInt8]> {
    while outputRead < output.count {
      for byte in model.piece(of: output[output.startIndex + outputRead]) {
        outputTail.append(byte)
        if outputTail.count > DocumentDates.isoStringLength { outputTail.removeFirst() }
        if DocumentDates.endsWithISODate(outputTail) {
          isoDatesWritten.insert(Array(outputTail.dropFirst().dropLast()))
        }
      }
      outputRead += 1
    }
    return isoDatesWritten
  }

  /// Notes that the model wrote `chosen` where `forced` was forced: itself, or a longer token
  /// that begins with its text.
  mutating func wrote(_ forced: Token, as chosen: Token) {
    longerTokens[forced] = chosen == forced ? nil : chosen
  }

  /// The longer token the model wrote in place of `forced` the last time it was forced, if any.
  func longerToken(writing forced: Token) -> Token? { longerTokens[forced] }

  /// Notes that the model refused `guess` after `previous`: it is not proposed there again.
  mutating func refuse(_ guess: Token, after previous: Token, model: any TokenModel) {
    refused.insert([key(of: previous, model: model), guess])
  }

  /// Whether the model refused `guess` after a token whose key is `key`.
  func refused(_ guess: Token, afterKey key: Token) -> Bool { refused.contains([key, guess]) }

  /// Moves the cursor past `token`, one the model chose, where the text near the cursor holds
  /// it (the nearest after the cursor), or where the prompt holds it once.
  mutating func follow(_ token: Token, inPrompt prompt: [Token], model: any TokenModel) {
    let keys = keys(ofPrompt: prompt, model: model)
    let key = key(of: token, model: model)
    if let cursor, cursor < keys.count,
      let position = keys[cursor..<min(keys.count, cursor + Self.window)].firstIndex(of: key)
    {
      self.cursor = position + 1
      return
    }
    if let first = keys.firstIndex(of: key), keys.lastIndex(of: key) == first { cursor = first + 1 }
  }

  /// Whether `token` is a comma between two digits, `previous` and `next` (a text's thousands).
  static func separatesDigits(_ token: Token, between previous: Token, and next: Token, model: any TokenModel) -> Bool {
    model.piece(of: token) == [UInt8(ascii: ",")] && model.piece(of: previous).last?.isASCIIDigit == true
      && model.piece(of: next).first?.isASCIIDigit == true
  }

  /// Whether `constraint` has a string open: it takes a quote as the next token.
  mutating func isInString(_ constraint: any TokenConstraint, model: any TokenModel) -> Bool {
    if quote == nil { quote = model.tokenize("\"", parseSpecial: false).first ?? -1 }
    guard let quote, quote >= 0, let before = constraint.snapshot() else { return false }
    defer { constraint.restore(before) }
    return (try? constraint.accept(quote)) != nil
  }

  /// Whether `token` ends a value copied from a text: a line's end or a gap between columns.
  static func endsValue(_ token: Token, model: any TokenModel) -> Bool {
    let piece = model.piece(of: token)
    return piece.contains(UInt8(ascii: "\n")) || (piece.count > 1 && piece.allSatisfy { $0 == UInt8(ascii: " ") })
  }
}
