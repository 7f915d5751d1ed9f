import FMServer
import FMTestSupport
import Foundation
import FoundationModels
import GuidedDecoding
import JSON
import Testing

/// `/v1/chat/completions` and the helper routes on the small model, through raw HTTP: the
/// answers' shapes, finish reasons, usage, constrained output, tool calls, and refusals.
@Suite(.enabled(if: TestServer.modelIsPresent), .serialized)
struct ChatCompletionsTests {
  static func post(_ server: TestServer, _ body: String, path: String = "/v1/chat/completions") async throws
    -> RawHTTPConnection.Response
  {
    try await RawHTTPConnection.exchange(RawHTTPConnection.post(path, body), port: server.port)
  }

  @Test func aCompletionHasOpenAIsShapeAndUsage() async throws {
    let server = try TestServer.start()
    let response = try await Self.post(server, TestServer.chat("Say hello", maxTokens: 6))
    #expect(response.status == 200)
    let json = response.json
    #expect((json["id"] as? String)?.hasPrefix("chatcmpl-") == true)
    #expect(json["object"] as? String == "chat.completion")
    #expect(json["model"] as? String == TestServer.modelID)
    let choice = try #require((json["choices"] as? [[String: Any]])?.first)
    let message = try #require(choice["message"] as? [String: Any])
    #expect(message["role"] as? String == "assistant")
    #expect(message["content"] is String)
    let usage = try #require(json["usage"] as? [String: Any])
    let completion = try #require(usage["completion_tokens"] as? Int)
    // How many tokens the model writes depends on the CPU (llama.cpp is built for it); the
    // budget holds on any, and an answer of no tokens at all would be within it too.
    #expect((0...6).contains(completion))
    #expect(usage["total_tokens"] as? Int == (usage["prompt_tokens"] as? Int ?? 0) + completion)
    // finish_reason comes from the engine: `length` exactly when the budget was used up.
    #expect(choice["finish_reason"] as? String == (completion == 6 ? "length" : "stop"))
    await server.stop()
  }

  @Test func aStreamHasOpenAIsChunkSequence() async throws {
    let server = try TestServer.start()
    let body = TestServer.chat(
      "Count to five", maxTokens: 8, extra: #","stream":true,"stream_options":{"include_usage":true}"#)
    let response = try await Self.post(server, body)
    let chunks = TestServer.openAIChunks(of: response)
    #expect(Set(chunks.compactMap { $0["id"] as? String }).count == 1)
    #expect(Set(chunks.compactMap { $0["created"] as? Int }).count == 1)
    #expect(chunks.allSatisfy { $0["object"] as? String == "chat.completion.chunk" })
    let choices = chunks.map { ($0["choices"] as? [[String: Any]])?.first }
    let firstDelta = try #require(choices.first??["delta"] as? [String: Any])
    #expect(firstDelta["role"] as? String == "assistant")
    #expect((firstDelta["content"] as? String)?.isEmpty == true)
    // The last choice chunk has an empty delta and the reason; then the usage chunk, no choices.
    let final = try #require(choices[choices.count - 2])
    #expect((final["delta"] as? [String: Any])?.isEmpty == true)
    #expect((chunks.last?["choices"] as? [Any])?.isEmpty == true)
    let usage = try #require(chunks.last?["usage"] as? [String: Any])
    let middle = choices.dropFirst().dropLast(2)
    #expect(middle.allSatisfy { $0?["finish_reason"] is NSNull })
    let text = middle.compactMap { ($0?["delta"] as? [String: Any])?["content"] as? String }.joined()
    // The answer's length depends on the CPU; at any length the budget holds, the reason says
    // whether it was used up, and the tokens counted are the text streamed.
    let completion = try #require(usage["completion_tokens"] as? Int)
    #expect((0...8).contains(completion))
    #expect(final["finish_reason"] as? String == (completion == 8 ? "length" : "stop"))
    #expect(text.isEmpty == (completion == 0), "\(completion) tokens streamed as \(text.debugDescription)")
    await server.stop()
  }

  /// With one slot and two conversations in turn, each takes the slot from the other: the one
  /// that comes back finds its cache restored from host memory (all but its prompt's last token
  /// cached, or last two: `TokenBackend.consistentRows`), and with `--cache-ram 0` evaluates it again.
  @Test(arguments: [nil, 0]) func aConversationWhoseSlotWasLentFindsItsCache(cacheRAM: Int?) async throws {
    let server = try TestServer.start(parallel: 1, cacheRAM: cacheRAM)
    let long = String(repeating: "Answer briefly, as a sailor would. ", count: 10)
    let first = TestServer.chat(long + "Name a colour", maxTokens: 4)
    func cached(_ body: String) async throws -> (prompt: Int, cached: Int) {
      let usage = try #require(try await Self.post(server, body).json["usage"] as? [String: Any])
      let details = try #require(usage["prompt_tokens_details"] as? [String: Any])
      return (try #require(usage["prompt_tokens"] as? Int), try #require(details["cached_tokens"] as? Int))
    }
    _ = try await cached(first)
    _ = try await cached(TestServer.chat("Name a fish. " + long, maxTokens: 4))
    let back = try await cached(first)
    let metrics = try await server.metrics { TestServer.metric("fm_cache_restores_total", in: $0) != nil }
    if cacheRAM == 0 {
      #expect(back.cached < back.prompt / 2)
      #expect(TestServer.metric("fm_cache_restores_total", in: metrics.text) == 0)
    } else {
      #expect([back.prompt - 1, back.prompt - 2].contains(back.cached))
      #expect(TestServer.metric("fm_cache_restores_total", in: metrics.text) == 1)
      #expect(try #require(TestServer.metric("fm_cache_saves_total", in: metrics.text)) >= 1)
    }
    await server.stop()
  }

  @Test func aRepeatedPromptReportsTheTokensFoundInTheCache() async throws {
    let server = try TestServer.start()
    let body = TestServer.chat("Name a colour", maxTokens: 4)
    func usage(_ response: RawHTTPConnection.Response) throws -> (prompt: Int, cached: Int) {
      let usage = try #require(response.json["usage"] as? [String: Any])
      let details = try #require(usage["prompt_tokens_details"] as? [String: Any])
      return (try #require(usage["prompt_tokens"] as? Int), try #require(details["cached_tokens"] as? Int))
    }
    // A new server's cache holds nothing; the same messages again find all but the prompt's
    // last token there (its logits choose the first token), or its last two under an attention
    // kernel whose one-row products round otherwise (`TokenBackend.consistentRows`), streamed or
    // not.
    let first = try usage(try await Self.post(server, body))
    #expect(first.cached == 0)
    let second = try usage(try await Self.post(server, body))
    #expect(second.prompt == first.prompt)
    #expect([second.prompt - 1, second.prompt - 2].contains(second.cached))
    let streamed = try await Self.post(
      server,
      TestServer.chat("Name a colour", maxTokens: 4, extra: #","stream":true,"stream_options":{"include_usage":true}"#))
    // The usage chunk comes last before [DONE].
    let streamedUsage = TestServer.chunks(of: streamed).last?["usage"] as? [String: Any]
    #expect((streamedUsage?["prompt_tokens_details"] as? [String: Any])?["cached_tokens"] as? Int == second.cached)
    let cached = Double(2 * second.cached)
    let metrics = try await server.metrics { TestServer.metric("fm_prompt_tokens_cached_total", in: $0) == cached }
    #expect(TestServer.metric("fm_prompt_tokens_cached_total", in: metrics.text) == cached)
    await server.stop()
  }

  @Test func greedyAnswersAgreeAndAStopTextCutsTheAnswerBeforeIt() async throws {
    let server = try TestServer.start()
    let greedy = #","temperature":0"#
    let first = try await Self.post(server, TestServer.chat("Name three colours", maxTokens: 20, extra: greedy))
    let second = try await Self.post(server, TestServer.chat("Name three colours", maxTokens: 20, extra: greedy))
    func content(_ response: RawHTTPConnection.Response) -> String {
      (((response.json["choices"] as? [[String: Any]])?.first?["message"] as? [String: Any])?["content"] as? String)
        ?? ""
    }
    let text = content(first)
    #expect(text == content(second))
    // The stop text comes from the answer, however long it is on this CPU: its last word (the
    // whole answer when it has no word), so that the greedy answer again meets it within the
    // same 20 tokens. Only an empty answer leaves nothing to stop at.
    try #require(!text.isEmpty, "an empty answer has no text to stop at")
    let stop = text.split(whereSeparator: \.isWhitespace).last.map(String.init) ?? text
    let stopJSON = String(decoding: try JSONSerialization.data(withJSONObject: [stop]), as: UTF8.self)
    let stopped = try await Self.post(
      server, TestServer.chat("Name three colours", maxTokens: 20, extra: greedy + #","stop":\#(stopJSON)"#))
    let cut = content(stopped)
    #expect(!cut.contains(stop))
    #expect(text.hasPrefix(cut))
    #expect(cut.count < text.count)
    let choice = (stopped.json["choices"] as? [[String: Any]])?.first
    #expect(choice?["finish_reason"] as? String == "stop")
    await server.stop()
  }

  /// The schema bounds the whole output: a name of at most 20 characters (at most 12 bytes
  /// each, written as a surrogate pair's escapes), an age of at most three digits and the
  /// fixed text around them, under 280 bytes, and a token is at least one byte: 300 tokens
  /// always suffice, however the model on this CPU fills the name, so the JSON is complete.
  @Test func jsonSchemaOutputParsesAndSatisfiesTheSchema() async throws {
    let server = try TestServer.start()
    let schema =
      #"{"type":"object","properties":{"name":{"type":"string","maxLength":20},"age":{"type":"integer","minimum":0,"maximum":120}},"required":["name","age"],"additionalProperties":false}"#
    let body = TestServer.chat(
      "Describe a person", maxTokens: 300,
      extra:
        #","response_format":{"type":"json_schema","json_schema":{"name":"person","strict":true,"schema":\#(schema)}}"#)
    let response = try await Self.post(server, body)
    #expect(response.status == 200)
    let message = ((response.json["choices"] as? [[String: Any]])?.first?["message"] as? [String: Any])
    let content = try #require(message?["content"] as? String)
    let document = try JSONSchemaParser().parse(schema)
    let value = try JSONValue(parsing: content)
    #expect(try SchemaValidator(document: document).validate(value, against: document.root))
    // The prompt is the messages as sent: the schema constrains, it is not added to the prompt.
    let plain = try await Self.post(server, TestServer.chat("Describe a person", maxTokens: 1))
    let usage = { (response: RawHTTPConnection.Response) in
      (response.json["usage"] as? [String: Any])?["prompt_tokens"] as? Int
    }
    #expect(usage(response) != nil)
    #expect(usage(response) == usage(plain))
    await server.stop()
  }

  /// A `json_object` answer is an object of any members, which the model may go on writing
  /// past any budget, and where the budget ends depends on the text this CPU's model writes:
  /// an answer that ended (`stop`) is a whole object; one the budget cut (`length`) is the
  /// start of one, which the partial-JSON parser reads as an unfinished object.
  @Test func jsonObjectOutputIsAnObject() async throws {
    let server = try TestServer.start()
    let body = TestServer.chat(
      "Give a JSON object about a cat", maxTokens: 40, extra: #","response_format":{"type":"json_object"}"#)
    let response = try await Self.post(server, body)
    #expect(response.status == 200)
    let choice = try #require((response.json["choices"] as? [[String: Any]])?.first)
    let content = try #require((choice["message"] as? [String: Any])?["content"] as? String)
    let completion = try #require((response.json["usage"] as? [String: Any])?["completion_tokens"] as? Int)
    let read = try GeneratedContent(json: content)
    guard case .structure = read.kind else {
      Issue.record("not an object: \(content)")
      return
    }
    switch choice["finish_reason"] as? String {
    case "stop":
      #expect(read.isComplete, "an ended answer is a whole object: \(content)")
      guard case .object = try JSONValue(parsing: content) else {
        Issue.record("not an object: \(content)")
        return
      }
    case "length":
      #expect(completion >= 40, "cut by the budget after \(completion) tokens: \(content)")
    case let reason:
      Issue.record("finish_reason \(reason ?? "none"): \(content)")
    }
    await server.stop()
  }

  /// Tools whose arguments are one of a few short strings: a call is a few dozen tokens at most,
  /// so a forced call always fits the tests' budgets, whatever this CPU's model would write.
  static let weatherTool =
    #"{"type":"function","function":{"name":"weather","description":"The weather in a city","parameters":{"type":"object","properties":{"city":{"type":"string","enum":["Paris","London","Tokyo"]}},"required":["city"]}}}"#
  static let timeTool =
    #"{"type":"function","function":{"name":"time","description":"The time in a time zone","parameters":{"type":"object","properties":{"zone":{"type":"string","enum":["UTC","CET","JST"]}},"required":["zone"]}}}"#

  @Test(arguments: [#""required""#, #"{"type":"function","function":{"name":"time"}}"#])
  func requiredAndNamedToolChoiceGiveWellFormedCalls(choice: String) async throws {
    let server = try TestServer.start()
    let body = TestServer.chat(
      "What is the weather in Paris?", maxTokens: 60,
      extra: #","tools":[\#(Self.weatherTool),\#(Self.timeTool)],"tool_choice":\#(choice)"#)
    let response = try await Self.post(server, body)
    #expect(response.status == 200)
    let choiceJSON = try #require((response.json["choices"] as? [[String: Any]])?.first)
    #expect(choiceJSON["finish_reason"] as? String == "tool_calls")
    let message = try #require(choiceJSON["message"] as? [String: Any])
    let calls = try #require(message["tool_calls"] as? [[String: Any]])
    #expect(!calls.isEmpty)
    for call in calls {
      #expect((call["id"] as? String)?.hasPrefix("call_") == true)
      #expect(call["type"] as? String == "function")
      let function = try #require(call["function"] as? [String: Any])
      let name = try #require(function["name"] as? String)
      if choice.contains("time") { #expect(name == "time") } else { #expect(["weather", "time"].contains(name)) }
      let arguments = try JSONValue(parsing: try #require(function["arguments"] as? String))
      let key = name == "weather" ? "city" : "zone"
      guard case .string? = arguments[key] else {
        Issue.record("arguments without \(key): \(arguments.compactText)")
        continue
      }
    }
    await server.stop()
  }

  /// A forced call that `max_tokens` cannot hold is a 400 naming the tokens it needs, before
  /// any generation; given exactly those tokens, the call comes whole (it was a 500, "ended
  /// inside a tool call").
  @Test(arguments: [#""required""#, #"{"type":"function","function":{"name":"time"}}"#])
  func aForcedCallTheTokenLimitCannotHoldIsA400(choice: String) async throws {
    let server = try TestServer.start()
    func post(_ maxTokens: Int) async throws -> RawHTTPConnection.Response {
      try await Self.post(
        server,
        TestServer.chat(
          "What is the weather in Paris?", maxTokens: maxTokens,
          extra: #","tools":[\#(Self.weatherTool),\#(Self.timeTool)],"tool_choice":\#(choice)"#))
    }
    let refused = try await post(1)
    #expect(refused.status == 400)
    let error = try #require(refused.json["error"] as? [String: Any])
    #expect(error["param"] as? String == "max_tokens")
    let message = try #require(error["message"] as? String)
    let needed = try #require(Int(message.split(separator: " ").dropLast().last.map(String.init) ?? ""))
    #expect(needed > 1)
    #expect(try await post(needed - 1).status == 400)
    let fitted = try await post(needed)
    #expect(fitted.status == 200)
    let choiceJSON = try #require((fitted.json["choices"] as? [[String: Any]])?.first)
    #expect(choiceJSON["finish_reason"] as? String == "tool_calls")
    let calls = try #require((choiceJSON["message"] as? [String: Any])?["tool_calls"] as? [[String: Any]])
    #expect(calls.count == 1)
    let function = try #require(calls.first?["function"] as? [String: Any])
    #expect(throws: Never.self) { try JSONValue(parsing: function["arguments"] as? String ?? "") }
    await server.stop()
  }

  @Test func toolMessagesComeBackAsTheConversation() async throws {
    let server = try TestServer.start()
    let body =
      #"{"model":"smollm2-135m","max_tokens":10,"tools":[\#(Self.weatherTool)],"tool_choice":"none","messages":[{"role":"user","content":"Weather in Paris?"},{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"weather","arguments":"{\"city\":\"Paris\"}"}}]},{"role":"tool","tool_call_id":"call_1","content":"Sunny, 21 C"}]}"#
    let response = try await Self.post(server, body)
    #expect(response.status == 200)
    let choice = (response.json["choices"] as? [[String: Any]])?.first
    #expect(choice?["finish_reason"] as? String != "tool_calls")
    await server.stop()
  }

  static let refused: [(body: String, param: String)] = [
    ("{not json", ""),
    (#"{"model":"smollm2-135m","messages":[{"role":"user","content":"hi"}],"frobnicate":1}"#, "frobnicate"),
    (#"{"model":"smollm2-135m","messages":[{"role":"user","content":"hi"}],"n":2}"#, "n"),
    (
      #"{"model":"smollm2-135m","messages":[{"role":"user","content":"hi"}],"presence_penalty":0.5}"#,
      "presence_penalty"
    ),
    (
      #"{"model":"smollm2-135m","messages":[{"role":"user","content":"hi"}],"frequency_penalty":1}"#,
      "frequency_penalty"
    ),
    (#"{"model":"smollm2-135m","messages":[{"role":"user","content":"hi"}],"temperature":1.5}"#, "temperature"),
    (#"{"model":"smollm2-135m","messages":[{"role":"user","content":"hi"}],"top_p":0.5,"top_k":4}"#, "top_k"),
    (#"{"model":"smollm2-135m","messages":[{"role":"user","content":"hi"}],"max_tokens":0}"#, "max_tokens"),
    (#"{"model":"smollm2-135m","messages":[{"role":"user","content":"hi"}],"logprobs":true}"#, "logprobs"),
    (#"{"model":"smollm2-135m","messages":[{"role":"user","content":"hi"}],"stream_options":{}}"#, "stream_options"),
    (#"{"model":"smollm2-135m","messages":[{"role":"user","content":"hi","name":"x"}]}"#, "messages[0].name"),
    (#"{"model":"smollm2-135m","messages":[{"role":"wizard","content":"hi"}]}"#, "messages[0].role"),
    (
      #"{"model":"smollm2-135m","messages":[{"role":"user","content":[{"type":"image_url"}]}]}"#,
      "messages[0].content[0].type"
    ),
    (#"{"model":"smollm2-135m","messages":[{"role":"assistant","content":"hi"}]}"#, "messages"),
    (#"{"model":"smollm2-135m","messages":[{"role":"user","content":"hi"}],"tool_choice":"required"}"#, "tool_choice"),
    (
      #"{"model":"smollm2-135m","messages":[{"role":"user","content":"hi"}],"response_format":{"type":"xml"}}"#,
      "response_format.type"
    ),
    (
      #"{"model":"smollm2-135m","messages":[{"role":"user","content":"hi"}],"response_format":{"type":"json_schema","json_schema":{"name":"x","schema":{"type":"nonsense"}}}}"#,
      "response_format.json_schema.schema"
    ),
    (#"{"model":"smollm2-135m","messages":[{"role":"user","content":"hi"}],"stop":["a","b","c","d","e"]}"#, "stop"),
    (
      #"{"model":"smollm2-135m","messages":[{"role":"tool","tool_call_id":"x","content":"hi"}]}"#,
      "messages[0].tool_call_id"
    ),
  ]

  @Test func badRequestsAre400sThatNameTheParameter() async throws {
    let server = try TestServer.start()
    for (body, param) in Self.refused {
      let response = try await Self.post(server, body)
      #expect(response.status == 400, "\(body)")
      #expect((response.error["param"] as? String ?? "") == param, "\(body): \(response.text)")
      #expect(response.error["type"] as? String == "invalid_request_error")
    }
    let unknownModel = try await Self.post(server, #"{"model":"gpt-9","messages":[{"role":"user","content":"hi"}]}"#)
    #expect(unknownModel.status == 404)
    #expect(unknownModel.error["code"] as? String == "model_not_found")
    await server.stop()
  }

  @Test func aPromptThatCannotFitIsA400WithTheCounts() async throws {
    let server = try TestServer.start(contextSize: 128)
    let long = String(repeating: "word ", count: 300)
    let response = try await Self.post(server, TestServer.chat(long))
    #expect(response.status == 400)
    #expect(response.error["code"] as? String == "context_length_exceeded")
    let message = response.error["message"] as? String ?? ""
    #expect(message.contains("128"))
    #expect(message.contains("tokens"))
    await server.stop()
  }

  @Test func tokenizeDetokenizeAndApplyTemplate() async throws {
    let server = try TestServer.start()
    let tokens = try #require(
      try await Self.post(server, #"{"content":"Hello world"}"#, path: "/tokenize").json["tokens"] as? [Int])
    let text = try await Self.post(server, #"{"tokens":\#(tokens)}"#, path: "/detokenize").json["content"] as? String
    #expect(text == "Hello world")
    let prompt =
      try await Self.post(
        server, #"{"messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Hi there"}]}"#,
        path: "/apply-template"
      ).json["prompt"] as? String
    let rendered = try #require(prompt)
    #expect(rendered.contains("Be brief."))
    #expect(rendered.range(of: "Be brief.")!.lowerBound < rendered.range(of: "Hi there")!.lowerBound)
    #expect(try await Self.post(server, #"{"tokens":[-1]}"#, path: "/detokenize").status == 400)
    #expect(try await Self.post(server, #"{"content":"x","add_special":true}"#, path: "/tokenize").status == 400)
    await server.stop()
  }

  /// `/apply-template` takes `tools` and `chat_template_kwargs` as llama-server does, and a
  /// completion renders with the same variables.
  @Test func applyTemplateTakesToolsAndTemplateVariables() async throws {
    let template = """
      {%- if tools %}[tools:{% for t in tools %}{{ t.function.name }}{% endfor %}]{% endif -%}
      {%- for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor -%}
      {%- if add_generation_prompt %}<|im_start|>assistant\n{% if think is defined %}[think={{ think }}]{% endif %}{% endif -%}
      """
    let server = try TestServer.start(chatTemplate: template)
    let tool =
      #"{"type":"function","function":{"name":"getWeather","parameters":{"type":"object","properties":{"city":{"type":"string"}}}}}"#
    let body =
      #"{"messages":[{"role":"user","content":"Hi"}],"tools":[\#(tool)],"chat_template_kwargs":{"think":"deep"}}"#
    let prompt = try #require(try await Self.post(server, body, path: "/apply-template").json["prompt"] as? String)
    // The template has no <tool_call> format of its own: the generic one describes the tools.
    #expect(prompt.contains("getWeather"))
    #expect(prompt.hasSuffix("<|im_start|>assistant\n[think=deep]"))
    let refused = try await Self.post(
      server, #"{"messages":[{"role":"user","content":"Hi"}],"chat_template_kwargs":"think"}"#, path: "/apply-template")
    #expect(refused.status == 400)
    #expect(refused.error["param"] as? String == "chat_template_kwargs")
    // A completion with the variables: its prompt counts the template's extra text.
    let plain = try await Self.post(server, TestServer.chat("Hi", maxTokens: 1))
    let deep = try await Self.post(
      server, TestServer.chat("Hi", maxTokens: 1, extra: #","chat_template_kwargs":{"think":"deep"}"#))
    let usage = { (response: RawHTTPConnection.Response) in
      (response.json["usage"] as? [String: Any])?["prompt_tokens"] as? Int
    }
    #expect(try #require(usage(deep)) > #require(usage(plain)))
    await server.stop()
  }

  /// A thinking template (its generation prompt opens `<think>`, as DeepSeek-R1's does): the
  /// thinking comes back as `reasoning_content`, and JSON output starts after it.
  @Test func thinkingIsReasoningContentAndJSONFollowsIt() async throws {
    let template = """
      {%- for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor -%}
      {%- if add_generation_prompt %}<|im_start|>assistant\n<think>\n{% endif -%}
      """
    let server = try TestServer.start(chatTemplate: template)
    let response = try await Self.post(
      server, TestServer.chat("Hi", maxTokens: 24, extra: #","response_format":{"type":"json_object"}"#))
    #expect(response.status == 200)
    let message = try #require(((response.json["choices"] as? [[String: Any]])?.first)?["message"] as? [String: Any])
    let content = try #require(message["content"] as? String)
    // The answer is the JSON after the thinking, whatever this CPU's model thinks and however
    // far the budget lets it go: it opens with the object (the thinking and its closing marker
    // are split off) and reads as one, whole or cut by the budget. Its strings may hold any
    // text, `</think>` too; the thinking ends at its first closing marker, so it holds none.
    #expect(content.hasPrefix("{"))
    let isObject = if case .structure = try GeneratedContent(json: content).kind { true } else { false }
    #expect(isObject, "not an object: \(content)")
    if let reasoning = message["reasoning_content"] as? String { #expect(!reasoning.contains("</think>")) }
    // SmolLM2's own template does not think: a reasoning effort is refused, not ignored.
    let plain = try TestServer.start()
    let refused = try await Self.post(plain, TestServer.chat("Hi", extra: #","reasoning_effort":"high""#))
    #expect(refused.status == 400)
    #expect(refused.error["param"] as? String == "reasoning_effort")
    let bogus = try await Self.post(plain, TestServer.chat("Hi", extra: #","reasoning_effort":"extreme""#))
    #expect(bogus.status == 400)
    await plain.stop()
    await server.stop()
  }

  @Test func metricsCountRequestsAndTokens() async throws {
    let server = try TestServer.start()
    // A JSON object cannot end before its first token, so the answer has at least one token
    // whatever this CPU's model would write (free text could end at once).
    _ = try await Self.post(
      server, TestServer.chat("Hi", maxTokens: 3, extra: #","response_format":{"type":"json_object"}"#))
    _ = try await Self.post(server, "{bad")
    let refused = #"fm_requests_total{endpoint="/v1/chat/completions",status="400"} 1"#
    let metrics = try await server.metrics { text in
      text.contains(refused) && (TestServer.metric("fm_completion_tokens_total", in: text) ?? 0) >= 1
    }
    #expect(metrics.status == 200)
    #expect(metrics.text.contains(#"fm_requests_total{endpoint="/v1/chat/completions",status="200"} 1"#))
    #expect(metrics.text.contains(#"fm_requests_total{endpoint="/v1/chat/completions",status="400"} 1"#))
    #expect(metrics.text.contains("fm_slots_total 2"))
    func value(_ name: String) -> Double? { TestServer.metric(name, in: metrics.text) }
    #expect(try #require(value("fm_completion_tokens_total")) >= 1)
    // The batched decodes: the prompt and at least one generated token, each decode holding one
    // sequence (one request at a time), time spent.
    let decodes = try #require(value("fm_decodes_total"))
    #expect(decodes >= 2)
    #expect(value("fm_decode_sequences_total") == decodes)
    #expect(try #require(value("fm_decode_tokens_total")) > decodes)
    #expect(try #require(value("fm_decode_seconds_total")) > 0)
    // One request: nothing in the cache to reuse or copy yet.
    #expect(value("fm_prompt_tokens_cached_total") == 0)
    #expect(value("fm_cache_copies_total") == 0)
    await server.stop()
  }

  /// A named tool choice forces that tool's call while the prompt lists every tool: the prompt
  /// is the same whichever tool a turn forces (so a conversation keeps its cached prefix), and
  /// `parallel_tool_calls: false` allows one call at most.
  @Test func aForcedToolLeavesThePromptAsItIsAndOneCallIsOne() async throws {
    let server = try TestServer.start()
    func ask(_ choice: String, maxTokens: Int = 80, extra: String = "") async throws -> [String: Any] {
      let body = TestServer.chat(
        "Weather in Paris?", maxTokens: maxTokens,
        extra: #","tools":[\#(Self.weatherTool),\#(Self.timeTool)],"tool_choice":\#(choice)\#(extra)"#)
      return try await Self.post(server, body).json
    }
    let forced = try await ask(
      #"{"type":"function","function":{"name":"time"}}"#, extra: #","parallel_tool_calls":false"#)
    let other = try await ask(#"{"type":"function","function":{"name":"weather"}}"#)
    let none = try await ask(#""none""#, maxTokens: 1)
    let prompts = [forced, other, none].map { ($0["usage"] as? [String: Any])?["prompt_tokens"] as? Int }
    #expect(Set(prompts).count == 1, "\(prompts)")
    let choice = try #require((forced["choices"] as? [[String: Any]])?.first)
    let calls = (choice["message"] as? [String: Any])?["tool_calls"] as? [[String: Any]] ?? []
    // The forced call fits the budget (its argument is one of three short strings): one call.
    #expect(choice["finish_reason"] as? String == "tool_calls")
    #expect(calls.count == 1)
    #expect((calls.first?["function"] as? [String: Any])?["name"] as? String == "time")
    await server.stop()
  }
}
