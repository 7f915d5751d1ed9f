extension TokenModel {
  /// Tokenizes a rendered prompt as llama.cpp tokenizes a prompt with special tokens, except
  /// that control tokens are found in template text only: the text between two control tokens
  /// (template text and input together) is tokenized as one plain text, so words keep their
  /// usual tokens across the edge of an input, and input never yields a control token.
  ///
  /// The default implementation, without caching.
  public func tokenize(_ prompt: RenderedPrompt) -> [Token] {
    tokenize(prompt.pieces[...]) { tokenize($0, parseSpecial: false) }
  }

  /// Tokenizes pieces, with `plain` tokenizing the text between control tokens.
  public func tokenize(_ pieces: ArraySlice<RenderedPrompt.Piece>, plain: (String) -> [Token]) -> [Token] {
    var tokens: [Token] = []
    var run = ""
    for piece in pieces {
      guard piece.isControl else {
        run += piece.text
        continue
      }
      for segment in controlTokens.split(piece.text) {
        switch segment {
        case .text(let text): run += text
        case .control(let token):
          if !run.isEmpty { tokens += plain(run) }
          run = ""
          tokens.append(token)
        }
      }
    }
    if !run.isEmpty { tokens += plain(run) }
    return tokens
  }

  /// Tokenizes a rendered prompt, with the positions where its parts end
  /// (`GenerationRequest.promptBoundaries`).
  ///
  /// Parts are tokenized one by one, so a part's tokens are the same alone as in the whole prompt.
  public func tokenizeInParts(_ prompt: RenderedPrompt) -> (tokens: [Token], boundaries: [Int]) {
    var tokens: [Token] = []
    var boundaries: [Int] = []
    var start = 0
    for end in prompt.partEnds + [prompt.pieces.count] {
      tokens += tokenize(prompt.slice(start..<end))
      if end < prompt.pieces.count { boundaries.append(tokens.count) }
      start = end
    }
    return (tokens, boundaries)
  }
}

extension RenderedPrompt {
  /// The prompt of pieces `range`.
  fileprivate func slice(_ range: Range<Int>) -> RenderedPrompt {
    var part = RenderedPrompt()
    for piece in pieces[range] {
      if piece.isControl { part.control(piece.text) } else { part.content(piece.text) }
    }
    return part
  }
}
