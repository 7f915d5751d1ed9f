import FMServer
import FMTestSupport
import Foundation
import FoundationModels
import Testing

/// `/v1/completions`, OpenAI's legacy text completions, on the small model through raw HTTP:
/// the answers' shapes and usage, `echo`, `logprobs`, streams, stop texts and refusals.
///
/// What the model writes depends on the CPU (llama.cpp is built for it): the tests assert what
/// holds of any answer, never its text or its length within the budget.
@Suite(.enabled(if: TestServer.modelIsPresent), .serialized)
struct TextCompletionsTests {
  static let prompt = "The capital of France is"

  static func post(_ server: TestServer, _ body: String) async throws -> RawHTTPConnection.Response {
    try await RawHTTPConnection.exchange(RawHTTPConnection.post("/v1/completions", body), port: server.port)
  }

  /// A completions body for `prompt` with `extra` members.
  static func body(_ prompt: String = prompt, maxTokens: Int = 8, _ extra: String = "") -> String {
    let quoted = (try? JSONSerialization.data(withJSONObject: prompt, options: .fragmentsAllowed)) ?? Data()
    return
      #"{"model":"\#(TestServer.modelID)","prompt":\#(String(decoding: quoted, as: UTF8.self)),"max_tokens":\#(maxTokens)\#(extra)}"#
  }

  static func choice(_ json: [String: Any]) -> [String: Any] {
    (json["choices"] as? [[String: Any]])?.first ?? [:]
  }

  /// OpenAI's legacy `logprobs` object, its four arrays.
  struct LogProbabilities {
    var tokens: [String]
    var tokenLogProbabilities: [Double?]
    var top: [[String: Double]?]
    var offsets: [Int]

    init(_ value: Any?) throws {
      let object = try #require(value as? [String: Any])
      tokens = try #require(object["tokens"] as? [String])
      tokenLogProbabilities = try #require(object["token_logprobs"] as? [Any]).map { $0 as? Double }
      top = try #require(object["top_logprobs"] as? [Any]).map { $0 as? [String: Double] }
      offsets = try #require(object["text_offset"] as? [Int])
    }

    /// Appends a chunk's arrays.
    mutating func append(_ other: LogProbabilities) {
      tokens += other.tokens
      tokenLogProbabilities += other.tokenLogProbabilities
      top += other.top
      offsets += other.offsets
    }

    var isConsistent: Bool {
      [tokenLogProbabilities.count, top.count, offsets.count].allSatisfy { $0 == tokens.count }
    }
  }

  /// A text that repeats itself is continued with drafts from it (prompt lookup), counted in
  /// `/metrics`; a server started with `--speculate off` drafts nothing.
  @Test func draftsAreCountedAndOffDraftsNothing() async throws {
    let pattern = String(repeating: "red, green, blue, ", count: 8)
    for speculation in [SystemLanguageModel.Speculation.lookup, .off] {
      let server = try TestServer.start(speculation: speculation)
      let response = try await Self.post(server, Self.body(pattern, maxTokens: 24, #","temperature":0"#))
      #expect(response.status == 200)
      let metrics = try await server.metrics { _ in true }
      let drafted = try #require(TestServer.metric("fm_draft_tokens_total", in: metrics.text))
      let accepted = try #require(TestServer.metric("fm_draft_tokens_accepted_total", in: metrics.text))
      #expect(accepted <= drafted)
      if speculation == .off {
        #expect(drafted == 0)
      } else {
        #expect(drafted > 0, "the pattern's every pair of tokens occurred before")
      }
      await server.stop()
    }
  }

  /// A draft model that cannot pay (here the model itself: each guess costs what a token does,
  /// on any CPU) is never asked, not even to try (its first guess would cost its evaluation of
  /// the whole prompt): the same greedy request gets the same text and the same guesses (the
  /// lookup's, whatever the text) as on a server without one, counted in `/metrics`.
  @Test func aDraftModelThatCannotPayAddsNoGuesses() async throws {
    let counting = (1...12).map(String.init).joined(separator: ", ") + ","
    var outcomes: [(text: String?, drafted: Double, accepted: Double)] = []
    for speculation in [SystemLanguageModel.Speculation.lookup, .draft] {
      let server = try TestServer.start(
        speculation: speculation, draftModel: speculation == .draft ? TestModels.smolLM2Path : nil)
      let response = try await Self.post(server, Self.body(counting, maxTokens: 24, #","temperature":0"#))
      #expect(response.status == 200, "\(response.text)")
      let metrics = try await server.metrics { _ in true }
      let drafted = try #require(TestServer.metric("fm_draft_tokens_total", in: metrics.text))
      let accepted = try #require(TestServer.metric("fm_draft_tokens_accepted_total", in: metrics.text))
      outcomes.append((Self.choice(response.json)["text"] as? String, drafted, accepted))
      await server.stop()
    }
    #expect(outcomes[0].text != nil && outcomes[0].text == outcomes[1].text)
    #expect(outcomes[0].drafted == outcomes[1].drafted && outcomes[0].accepted == outcomes[1].accepted)
  }

  @Test func aCompletionHasOpenAIsLegacyShapeAndUsage() async throws {
    let server = try TestServer.start()
    let response = try await Self.post(server, Self.body(maxTokens: 6))
    #expect(response.status == 200, "\(response.text)")
    let json = response.json
    #expect((json["id"] as? String)?.hasPrefix("cmpl-") == true)
    #expect(json["object"] as? String == "text_completion")
    #expect(json["model"] as? String == TestServer.modelID)
    #expect(json["created"] is Int)
    let choice = Self.choice(json)
    #expect(choice["text"] is String)
    #expect(choice["index"] as? Int == 0)
    #expect(choice["logprobs"] is NSNull)
    let usage = try #require(json["usage"] as? [String: Any])
    let completion = try #require(usage["completion_tokens"] as? Int)
    #expect((0...6).contains(completion))
    #expect(choice["finish_reason"] as? String == (completion == 6 ? "length" : "stop"))
    // The prompt is its text's tokens, no chat template around them (a BOS token at most).
    let tokenized = try await RawHTTPConnection.exchange(
      RawHTTPConnection.post("/tokenize", #"{"content":"\#(Self.prompt)"}"#), port: server.port)
    let count = try #require(tokenized.json["tokens"] as? [Any]).count
    let promptTokens = try #require(usage["prompt_tokens"] as? Int)
    #expect(promptTokens == count || promptTokens == count + 1)
    #expect(usage["total_tokens"] as? Int == promptTokens + completion)
    await server.stop()
  }

  /// Without `max_tokens`, OpenAI's default of 16.
  @Test func theDefaultBudgetIsSixteenTokens() async throws {
    let server = try TestServer.start()
    let response = try await Self.post(server, #"{"model":"\#(TestServer.modelID)","prompt":"Once upon a time"}"#)
    let completion = try #require((response.json["usage"] as? [String: Any])?["completion_tokens"] as? Int)
    #expect((0...16).contains(completion))
    #expect(Self.choice(response.json)["finish_reason"] as? String == (completion == 16 ? "length" : "stop"))
    await server.stop()
  }

  @Test func echoReturnsThePromptFirst() async throws {
    let server = try TestServer.start()
    let response = try await Self.post(server, Self.body(maxTokens: 4, #","echo":true"#))
    #expect(response.status == 200)
    #expect((Self.choice(response.json)["text"] as? String)?.hasPrefix(Self.prompt) == true)
    // Nothing generated: the prompt alone.
    let alone = try await Self.post(server, Self.body(maxTokens: 0, #","echo":true"#))
    #expect(Self.choice(alone.json)["text"] as? String == Self.prompt)
    #expect((alone.json["usage"] as? [String: Any])?["completion_tokens"] as? Int == 0)
    await server.stop()
  }

  @Test(arguments: [1, 2, 5])
  func logprobsAreRealAndInOpenAIsLegacyShape(alternatives: Int) async throws {
    let server = try TestServer.start()
    let response = try await Self.post(
      server, Self.body(maxTokens: 6, #","temperature":0,"logprobs":\#(alternatives)"#))
    #expect(response.status == 200, "\(response.text)")
    let choice = Self.choice(response.json)
    let text = try #require(choice["text"] as? String)
    let scores = try LogProbabilities(choice["logprobs"])
    #expect(scores.isConsistent)
    let completion = (response.json["usage"] as? [String: Any])?["completion_tokens"] as? Int
    #expect(scores.tokens.count == completion)
    for index in scores.tokens.indices {
      let value = try #require(scores.tokenLogProbabilities[index])
      #expect(value <= 0)
      let top = try #require(scores.top[index])
      #expect((1...alternatives).contains(top.count))
      #expect(top.values.allSatisfy { $0 <= 0 })
      // Greedy: the chosen token is the most likely one, with its own log probability.
      let best = try #require(top.max { $0.value < $1.value })
      #expect(best.key == scores.tokens[index])
      #expect(abs(best.value - value) < 1e-4)
    }
    // Offsets place each token in the text.
    #expect(scores.offsets == scores.offsets.sorted())
    #expect(scores.offsets.allSatisfy { $0 <= text.unicodeScalars.count })
    if !scores.tokens.contains(where: { $0.hasPrefix("bytes:") }) {
      #expect(scores.tokens.joined() == text)
      var offset = 0
      for (token, start) in zip(scores.tokens, scores.offsets) {
        #expect(start == offset)
        offset += token.unicodeScalars.count
      }
    }
    await server.stop()
  }

  /// With `echo`, the prompt's tokens are scored too: the first has no log probability (no
  /// logits precede it), the others do; a prompt that names a control token is plain text.
  @Test(arguments: [0, 3])
  func echoWithLogprobsScoresThePrompt(maxTokens: Int) async throws {
    let server = try TestServer.start()
    let prompt = "<|im_start|>user\nThe capital of France is"
    let response = try await Self.post(
      server, Self.body(prompt, maxTokens: maxTokens, #","echo":true,"logprobs":2,"temperature":0"#))
    #expect(response.status == 200, "\(response.text)")
    let choice = Self.choice(response.json)
    let text = try #require(choice["text"] as? String)
    #expect(text.hasPrefix(prompt))
    let scores = try LogProbabilities(choice["logprobs"])
    #expect(scores.isConsistent)
    let usage = try #require(response.json["usage"] as? [String: Any])
    let promptTokens = try #require(usage["prompt_tokens"] as? Int)
    #expect(scores.tokens.count == promptTokens + (usage["completion_tokens"] as? Int ?? -1))
    #expect(scores.tokenLogProbabilities.first == .some(nil))
    #expect(scores.top.first == .some(nil))
    #expect(scores.tokenLogProbabilities.dropFirst().allSatisfy { ($0 ?? 1) <= 0 })
    #expect(scores.top.dropFirst().allSatisfy { ($0?.count ?? 0) >= 1 && ($0?.count ?? 0) <= 2 })
    // Every character of the prompt is in its tokens' texts: no text became a control token.
    #expect(scores.tokens.prefix(promptTokens).joined() == prompt)
    #expect(scores.offsets.prefix(promptTokens).first == 0)
    if scores.tokens.count > promptTokens { #expect(scores.offsets[promptTokens] == prompt.unicodeScalars.count) }
    await server.stop()
  }

  @Test func aStreamIsTheWholeAnswerInChunks() async throws {
    let server = try TestServer.start()
    let greedy = #","temperature":0,"logprobs":1"#
    let whole = try await Self.post(server, Self.body(maxTokens: 8, greedy))
    let response = try await Self.post(
      server, Self.body(maxTokens: 8, greedy + #","stream":true,"stream_options":{"include_usage":true}"#))
    let chunks = TestServer.openAIChunks(of: response)
    #expect(Set(chunks.compactMap { $0["id"] as? String }).count == 1)
    #expect(chunks.allSatisfy { $0["object"] as? String == "text_completion" })
    // The usage chunk has no choices; the one before it no text and the finish reason.
    #expect((chunks.last?["choices"] as? [Any])?.isEmpty == true)
    let usage = try #require(chunks.last?["usage"] as? [String: Any])
    #expect(usage["completion_tokens"] as? Int == (whole.json["usage"] as? [String: Any])?["completion_tokens"] as? Int)
    let choices = chunks.dropLast().map(Self.choice)
    let final = try #require(choices.last)
    #expect(final["text"] as? String == "")
    #expect(final["finish_reason"] as? String == Self.choice(whole.json)["finish_reason"] as? String)
    let pieces = choices.dropLast()
    #expect(pieces.allSatisfy { $0["finish_reason"] is NSNull })
    // Greedy, the chunks make the whole answer's text, and its tokens.
    #expect(pieces.compactMap { $0["text"] as? String }.joined() == Self.choice(whole.json)["text"] as? String)
    var streamed = try LogProbabilities(["tokens": [], "token_logprobs": [], "top_logprobs": [], "text_offset": []])
    for piece in pieces { streamed.append(try LogProbabilities(piece["logprobs"])) }
    let expected = try LogProbabilities(Self.choice(whole.json)["logprobs"])
    #expect(streamed.tokens == expected.tokens)
    #expect(streamed.offsets == expected.offsets)
    await server.stop()
  }

  @Test func aStopTextCutsTheAnswerAndItsTokens() async throws {
    let server = try TestServer.start()
    let greedy = #","temperature":0,"logprobs":1"#
    let whole = try await Self.post(server, Self.body("Name three colours:", maxTokens: 20, greedy))
    let text = try #require(Self.choice(whole.json)["text"] as? String)
    try #require(!text.isEmpty, "an empty answer has no text to stop at")
    let stop = text.split(whereSeparator: \.isWhitespace).last.map(String.init) ?? text
    let stopJSON = String(decoding: try JSONSerialization.data(withJSONObject: [stop]), as: UTF8.self)
    for stream in [false, true] {
      let response = try await Self.post(
        server,
        Self.body("Name three colours:", maxTokens: 20, greedy + #","stop":\#(stopJSON),"stream":\#(stream)"#))
      let choices = stream ? TestServer.chunks(of: response).map(Self.choice) : [Self.choice(response.json)]
      let cut = choices.compactMap { $0["text"] as? String }.joined()
      #expect(!cut.contains(stop))
      #expect(text.hasPrefix(cut))
      #expect(choices.last?["finish_reason"] as? String == "stop")
      // The tokens listed are those whose text begins in the answer.
      var scores = try LogProbabilities(["tokens": [], "token_logprobs": [], "top_logprobs": [], "text_offset": []])
      for choice in choices where !(choice["logprobs"] is NSNull) {
        scores.append(try LogProbabilities(choice["logprobs"]))
      }
      #expect(scores.isConsistent)
      #expect(scores.offsets.allSatisfy { $0 < cut.unicodeScalars.count })
    }
    await server.stop()
  }

  static let refused: [(body: String, param: String)] = [
    (#"{"model":"smollm2-135m"}"#, "prompt"),
    (#"{"model":"smollm2-135m","prompt":5}"#, "prompt"),
    (#"{"model":"smollm2-135m","prompt":["a","b"]}"#, "prompt"),
    (#"{"model":"smollm2-135m","prompt":[1,2,3]}"#, "prompt"),
    (#"{"model":"smollm2-135m","prompt":"a","n":2}"#, "n"),
    (#"{"model":"smollm2-135m","prompt":"a","best_of":3}"#, "best_of"),
    (#"{"model":"smollm2-135m","prompt":"a","suffix":"b"}"#, "suffix"),
    (#"{"model":"smollm2-135m","prompt":"a","logit_bias":{"50256":-100}}"#, "logit_bias"),
    (#"{"model":"smollm2-135m","prompt":"a","presence_penalty":0.5}"#, "presence_penalty"),
    (#"{"model":"smollm2-135m","prompt":"a","frequency_penalty":1}"#, "frequency_penalty"),
    (#"{"model":"smollm2-135m","prompt":"a","logprobs":6}"#, "logprobs"),
    (#"{"model":"smollm2-135m","prompt":"a","logprobs":true}"#, "logprobs"),
    (#"{"model":"smollm2-135m","prompt":"a","max_tokens":0}"#, "max_tokens"),
    (#"{"model":"smollm2-135m","prompt":"a","temperature":3}"#, "temperature"),
    (#"{"model":"smollm2-135m","prompt":"a","stop":["1","2","3","4","5"]}"#, "stop"),
    (#"{"model":"smollm2-135m","prompt":"a","stream_options":{"include_usage":true}}"#, "stream_options"),
    (#"{"model":"smollm2-135m","prompt":"a","messages":[]}"#, "messages"),
    (#"{"model":"smollm2-135m","prompt":"a","top_k":5}"#, "top_k"),
    (#"{"model":"smollm2-135m","prompt":""}"#, "prompt"),
  ]

  @Test func badRequestsAre400sThatNameTheParameter() async throws {
    let server = try TestServer.start()
    for (body, param) in Self.refused {
      let response = try await Self.post(server, body)
      #expect(response.status == 400, "\(body)")
      #expect((response.error["param"] as? String ?? "") == param, "\(body): \(response.text)")
      #expect(response.error["type"] as? String == "invalid_request_error")
    }
    let unknownModel = try await Self.post(server, #"{"model":"gpt-9","prompt":"hi"}"#)
    #expect(unknownModel.status == 404)
    #expect(unknownModel.error["code"] as? String == "model_not_found")
    await server.stop()
  }

  @Test func aPromptThatCannotFitIsA400() async throws {
    let server = try TestServer.start(contextSize: 128)
    let response = try await Self.post(server, Self.body(String(repeating: "word ", count: 300)))
    #expect(response.status == 400)
    #expect(response.error["code"] as? String == "context_length_exceeded")
    #expect(response.error["param"] as? String == "prompt")
    #expect((response.error["message"] as? String)?.contains("128") == true)
    await server.stop()
  }

  /// Text completions go through the slot pool and the API key as every generation does.
  @Test func aFullQueueIsA503AndTheAPIKeyIsChecked() async throws {
    let server = try TestServer.start(parallel: 1, queue: 0, configuration: ServerConfiguration(apiKey: "sesame"))
    let key = ["Authorization: Bearer sesame"]
    let unauthorized = try await RawHTTPConnection.exchange(
      RawHTTPConnection.post("/v1/completions", Self.body()), port: server.port)
    #expect(unauthorized.status == 401)
    let busy = try RawHTTPConnection(port: server.port)
    try busy.send(
      RawHTTPConnection.post(
        "/v1/completions", Self.body("Once upon a time", maxTokens: 2000, #","stream":true"#), headers: key))
    #expect(try await busy.readHead().status == 200)
    for stream in [false, true] {
      let refused = try await RawHTTPConnection.exchange(
        RawHTTPConnection.post("/v1/completions", Self.body(maxTokens: 2, #","stream":\#(stream)"#), headers: key),
        port: server.port)
      #expect(refused.status == 503)
      #expect(refused.error["code"] as? String == "queue_full")
    }
    busy.close()
    await server.stop()
  }
}
