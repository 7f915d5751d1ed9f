extension DecodeSteps {
  /// Tokens to evaluate after the batch as guesses of what the model chooses next, as many as
  /// `DraftPolicy` and the driver's `draftLimit` allow: from `PromptLookup`, or where it finds
  /// nothing and the request says so (`Speculation.draft`), from the draft model. In decodes
  /// other sequences share (`sharedDecodes`), copied spans only.
  ///
  /// Under a constraint each guess is one it allows after the ones before (so no draft can lead
  /// the output out of it), with the tokens allowed after it when few; forced text after a
  /// guess joins the draft as certain (taken when the guesses before it are), and guessing
  /// goes on after it. The lookup compares tokens without their leading space there
  /// (`GuidedLookupMemory.key`), and where the constraint refuses what the text it copies goes
  /// on with (a line's end, a gap between columns), the copied value ends: the guess is the
  /// token that ended values most often (`GuidedLookupMemory.closers`), and the forced text
  /// after it (the next key) joins the draft. Forced text the model wrote longer the last time
  /// (`":["` for `":[`) is drafted as that longer token (`Guess.presumed`). A document is
  /// mostly read in order: where the output's last tokens occur in it several times with
  /// different continuations (a digit, a word of a table), the occurrence nearest after where
  /// the output copied last (`GuidedLookupMemory.cursor`) is copied, and where they agree, the
  /// document is read on from that one. Where the output splits a
  /// value's word otherwise than the document (`gar` `lic` for ` garlic`), the value's text
  /// finds it (`SpelledLookup`); where it writes a date the document gives with its month's
  /// name in ISO 8601 form (`2025-03-14` for `14 March 2025`), the rest of that form is guessed
  /// (`DocumentDates`). Without a constraint, a copy makes the edits the output made
  /// to the text before (a rename, a replaced word: `CopyEdits`), and shortly after an edit it
  /// resumes where the output's last tokens occur near where it stopped (`CopyEdits.realign`).
  /// Right after a key, where nothing is copied, the value is guessed to begin where a form's or
  /// a table's next value does (`NextValueLookup`).
  /// - Parameters:
  ///   - budget: what is left of the budget after the batch.
  ///   - afterForced: whether the batch ends in forced text (a key): the lookup then copies
  ///     long matches only.
  ///   - outputsBefore: the outputs the batch takes (the logits after it, and before its last
  ///     token where that one may be healed): the drafts' share the backend's limit with them.
  ///   - presumed: the longer token evaluated in place of the output's last, a forced one
  ///     (`presumeExtension`): the guesses follow it.
  mutating func draft(
    budget: Int, afterForced: Bool = false, outputsBefore: Int = 1, presumed: Token? = nil,
    cancellation: CancellationFlag
  ) -> [Draft] {
    // While drafting pauses, the text is not even looked up.
    guard request.speculation != .off, request.logProbabilities == nil,
      draftPolicy.drafts(after: state.generated.count)
    else { return [] }
    let room = min(draftLimit + 1 - outputsBefore, spare(budget), contextLength - cacheLength - batch.count - 1)
    guard room > 0 else { return [] }
    let constraint = request.constraint
    let snapshot = constraint?.snapshot()
    if constraint != nil && snapshot == nil { return [] }
    defer { if let constraint, let snapshot { constraint.restore(snapshot) } }
    var context = request.promptTokens + state.generated
    if let presumed { context[context.count - 1] = presumed }
    var keys =
      constraint == nil || sharedDecodes
      ? nil
      : memory.keys(ofPrompt: request.promptTokens, model: model)
        + context[request.promptTokens.count...].map { memory.key(of: $0, model: model) }
    var drafts: [Draft] = []
    // The lookup's guesses after `context`, as many as the policy gives its match (and what is
    // left of `room` allows), with where the prompt holds them and what guessed them; where it
    // has none, the draft model's, up to its length.
    var looked: ArraySlice<(token: Token, source: Int?)> = []
    var lookedKind = Guess.copied
    var modelGuesses = 0
    // Where the document is read on from (`GuidedLookupMemory.cursor`).
    var readFrom = sharedDecodes ? nil : memory.cursor
    let policy = draftPolicy
    let generated = state.generated.count
    func findGuesses(afterForced: Bool = false) {
      let output = context[request.promptTokens.count...]
      // Under a constraint only the prompt is looked up: the output's keys repeat, its values
      // seldom do.
      // Without one, the text is copied with the edits the output made to it so far.
      var copied: [(token: Token, source: Int?)]?
      var realigned = false
      let found: PromptLookup.Found
      if constraint == nil {
        (found, copied, realigned) = edits.find(
          in: context, promptCount: request.promptTokens.count, count: room - drafts.count)
      } else {
        found = PromptLookup.find(
          in: context, keys: keys, count: room - drafts.count, before: request.promptTokens.count)
      }
      // Decodes shared with other sequences hold copied spans only, and so does what follows
      // forced text (a key): a shorter match there finds another value (the key's last one).
      let copiedOnly = sharedDecodes || afterForced
      var length =
        copiedOnly && found.match < DraftPolicy.copyMatch
        ? 0
        : realigned
          ? policy.realignedLength(after: generated, match: found.match)
          : policy.length(after: generated, match: found.match)
      // Under a constraint a value the prompt holds with one continuation goes on as there,
      // unless the model refused that guess after the same token before.
      if !copiedOnly { length = max(length, policy.agreedLength(after: generated, agreed: found.agreed)) }
      if let last = keys?.last, let guess = found.tokens.first, memory.refused(guess, afterKey: last) { length = 0 }
      // Where every occurrence goes on as drafted, the document is read on from the one
      // nearest after where the output copied last.
      let source =
        constraint != nil && length <= found.agreed
        ? found.occurrences.filter { $0 >= readFrom ?? 0 }.min() ?? found.occurrences.first : found.occurrences.first
      looked = (copied ?? Self.sourced(found.tokens, from: source)).prefix(length)
      lookedKind = realigned ? .realigned : policy.isShort(match: found.match) ? .shortCopy : .copied
      // Where the occurrences disagree, the one nearest after where the output copied last.
      if looked.isEmpty, !copiedOnly, constraint != nil, let from = readFrom, found.occurrences.count > 1,
        let nearest = found.occurrences.filter({ $0 >= from && $0 < from + GuidedLookupMemory.window }).min()
      {
        looked =
          Self.sourced(
            context[nearest..<min(nearest + DraftPolicy.agreedLength, request.promptTokens.count)], from: nearest)[...]
        lookedKind = .nearest
      }
      // Where the output splits the value's word otherwise than the document, by its text.
      if looked.isEmpty, !copiedOnly, let constraint,
        let value = SpelledLookup.valueText(
          of: context[request.promptTokens.count...], model: model,
          inString: memory.isInString(constraint, model: model)),
        let spelled = memory.spelled(prompt: request.promptTokens, model: model).find(
          after: value, model: model, cursor: readFrom, window: GuidedLookupMemory.window),
        !(keys?.last.map { memory.refused(spelled.tokens[0], afterKey: $0) } ?? false)
      {
        let length =
          spelled.agreed
          ? policy.agreedLength(after: generated, agreed: spelled.tokens.count)
          : min(spelled.tokens.count, DraftPolicy.agreedLength)
        looked = Self.sourced(spelled.tokens.prefix(length), from: spelled.source)[...]
        lookedKind = spelled.agreed ? .spelled : .nearest
      }
      // A date the document writes with its month's name, where the output's string begins as
      // its ISO 8601 form does: where nothing else is found, and before anything else once the
      // string goes on past a year in that form (`2025-`) or the output wrote a date so before.
      if !copiedOnly, let constraint, case let dates = memory.dates(prompt: request.promptTokens, model: model),
        !dates.dates.isEmpty, case let written = memory.isoDates(writtenIn: state.generated[...], model: model),
        let value = SpelledLookup.valueText(of: output, model: model, inString: true),
        looked.isEmpty || !written.isEmpty || DocumentDates.beginsISODate(value),
        memory.isInString(constraint, model: model),
        let date = dates.date(
          continuing: value,
          after: readFrom.map { memory.spelled(prompt: request.promptTokens, model: model).offset(of: $0) },
          excluding: written)
      {
        looked = isoDateGuesses(date, after: value.count)[...]
        lookedKind = .date
      }
      // Right after a key, where nothing is copied: where the document's next value begins,
      // read in order from where the output copied last; a date there in ISO 8601 form where
      // the output wrote a date so before.
      if looked.isEmpty, afterForced, !sharedDecodes, constraint != nil, let from = readFrom,
        let start = NextValueLookup.start(
          in: memory.spelled(prompt: request.promptTokens, model: model), after: from)
      {
        let offset = memory.spelled(prompt: request.promptTokens, model: model).offset(of: start.position)
        if !memory.isoDates(writtenIn: state.generated[...], model: model).isEmpty,
          let date = memory.dates(prompt: request.promptTokens, model: model).date(
            beginningAt: offset + (start.afterSpace ? 1 : 0))
        {
          looked = isoDateGuesses(date, after: 0)[...]
        } else {
          var tokens = Self.sourced(
            request.promptTokens[
              start.position..<min(start.position + DraftPolicy.agreedLength, request.promptTokens.count)],
            from: start.position)
          let first = tokens[0].token
          tokens[0].token = start.afterSpace ? memory.key(of: first, model: model) : first
          if !start.afterSpace || tokens[0].token != first { looked = tokens[...] }
        }
        if !looked.isEmpty { lookedKind = .nextValue }
      }
      let guessesByModel = looked.isEmpty && drafter != nil && !sharedDecodes
      modelGuesses =
        guessesByModel
        ? policy.modelGuesses(
          upTo: policy.modelLength, after: batch.count + drafts.count, costs: decodeCosts, guessCost: modelGuessCost,
          remaining: budget, tryCost: (drafter?.catchUpCost(to: context) ?? 0) * modelGuessCost)
        : 0
    }
    func nextGuess() -> (token: Token, kind: Guess, source: Int?)? {
      if let (token, source) = looked.popFirst() { return (token, lookedKind, source) }
      guard let drafter, modelGuesses > 0 else { return nil }
      modelGuesses -= 1
      return (try? drafter.guess(after: context, constraint: constraint, cancellation: cancellation)).map {
        ($0, .model, nil)
      }
    }
    findGuesses(afterForced: afterForced)
    drafting: while drafts.count < room {
      let forced = constraint?.forcedTokens() ?? []
      if forced.isEmpty {
        guard var (token, kind, source) = nextGuess(), !model.isEndOfGeneration(token) else { break }
        if let source { readFrom = source + 1 }
        // A number copied from a text that groups its digits (`8,284.50`) is written without
        // the commas: where no string is open, the comma between two digits is left out.
        if kind != .model, let constraint, let previous = context.last, let next = looked.first?.token,
          GuidedLookupMemory.separatesDigits(token, between: previous, and: next, model: model),
          !memory.isInString(constraint, model: model)
        {
          continue
        }
        // A copied value ends where the constraint refuses the text's next token, or where the
        // text's line or column ends.
        let ends = kind != .model && constraint != nil && GuidedLookupMemory.endsValue(token, model: model)
        if let constraint, let before = constraint.snapshot(), ends || (try? constraint.accept(token)) == nil {
          constraint.restore(before)
          // The first guess of a value is not one a closer stands in for.
          let startsValue = kind == .nextValue && (drafts.last?.forced ?? true)
          guard kind != .model, !startsValue,
            let closer = memory.closers.first(where: { closer in
              if (try? constraint.accept(closer)) != nil { return true }
              constraint.restore(before)
              return false
            })
          else { break }
          (token, kind, source) = (closer, .closer, nil)
          looked = []
        }
        drafts.append(
          Draft(
            token: token, allowedAfter: constraint?.allowedTokens(limit: Self.candidateLimit), guess: kind,
            source: source))
        context.append(token)
        keys?.append(memory.key(of: token, model: model))
        continue
      }
      guard let constraint, drafts.count + forced.count <= room else { break }
      for token in forced {
        guard (try? constraint.accept(token)) != nil else { break drafting }
        drafts.append(Draft(token: token, allowedAfter: constraint.allowedTokens(limit: Self.candidateLimit)))
      }
      // The model may write the last forced token longer (see `heal`): the logits before it
      // choose, so they are computed for the longer tokens too (the batch's, where it is the
      // first draft: the caller's).
      let last = forced[forced.count - 1]
      let extensions = constraint.extensions(of: last)
      context += forced
      if !extensions.isEmpty {
        drafts[drafts.count - 1].extensions = extensions
        if drafts.count > 1 { drafts[drafts.count - 2].allowedAfter?.append(contentsOf: extensions) }
        // Where the model wrote it longer the last time, the longer token stands in its place.
        if let presumed = memory.longerToken(writing: last), extensions.contains(presumed),
          (try? constraint.acceptExtension(of: last, by: presumed)) != nil
        {
          drafts[drafts.count - 1] = Draft(
            token: presumed, allowedAfter: constraint.allowedTokens(limit: Self.candidateLimit), guess: .presumed,
            extensions: extensions, replacing: last)
          context[context.count - 1] = presumed
        }
      }
      keys? += context.suffix(forced.count).map { memory.key(of: $0, model: model) }
      findGuesses(afterForced: true)
    }
    // As much of it as pays on this machine.
    if let decodeCosts {
      drafts.removeSubrange(draftPolicy.worthEvaluating(drafts, after: batch.count, costs: decodeCosts)...)
    }
    // A draft that ends in forced text is worth its evaluation only after a guess (a presumed
    // token is one).
    return presumed != nil || drafts.contains { !$0.forced } ? drafts : []
  }

  /// The tokens of `date`'s ISO 8601 form after its first `written` bytes, and of a line's end
  /// (where the value ends, `GuidedLookupMemory.endsValue`), each with where the prompt holds
  /// the date as its source: its start, so that the date is still the next one the output
  /// reads, and its end from its last character on, so that the output reads on after it.
  mutating func isoDateGuesses(_ date: DocumentDates.Date, after written: Int) -> [(token: Token, source: Int?)] {
    let spelled = memory.spelled(prompt: request.promptTokens, model: model)
    let text = String(decoding: date.iso.dropFirst(written) + [UInt8(ascii: "\n")], as: UTF8.self)
    let tokens = model.tokenize(text, parseSpecial: false)
    return tokens.enumerated().map { index, token in
      (token, spelled.token(at: index < tokens.count - 2 ? date.start : date.end - 1))
    }
  }

  /// `tokens` with the positions they copy, in turn from `source` on (none where nil).
  static func sourced<Tokens: Collection<Token>>(_ tokens: Tokens, from source: Int?) -> [(token: Token, source: Int?)]
  {
    tokens.enumerated().map { offset, token in (token, source.map { $0 + offset }) }
  }
}
