import Foundation
import JSON
import Testing

@testable import FoundationModels
@testable import RemoteModel

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Generable struct Verdict {
  @Guide(description: "yes or no", .anyOf(["yes", "no"])) var answer: String
  var confidence: Int
}

@Suite struct RemoteModelUnitTests {
  func request(
    transcript: [Transcript.Entry], schema: GenerationSchema? = nil, tools: [Transcript.ToolDefinition] = [],
    options: GenerationOptions = GenerationOptions(), context: ContextOptions = ContextOptions()
  ) -> LanguageModelExecutorGenerationRequest {
    LanguageModelExecutorGenerationRequest(
      id: UUID(), transcript: Transcript(entries: transcript), enabledTools: tools, schema: schema,
      generationOptions: options, contextOptions: context, metadata: [:])
  }

  func body(_ request: LanguageModelExecutorGenerationRequest) throws -> [String: Any] {
    let data = try ChatCompletionsRequest(model: "m", request: request).body()
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  @Test func theRequestCarriesMessagesToolsSchemaAndSampling() throws {
    let call = Transcript.ToolCall(id: "c1", toolName: "lookup", arguments: GeneratedContent(properties: ["q": "x"]))
    let entries: [Transcript.Entry] = [
      .instructions(Transcript.Instructions(segments: [.text(.init(content: "Be brief."))], toolDefinitions: [])),
      .prompt(Transcript.Prompt(segments: [.text(.init(content: "Hi"))])),
      .response(Transcript.Response(assetIDs: [], segments: [.text(.init(content: "Looking."))])),
      .toolCalls(Transcript.ToolCalls([call])),
      .toolOutput(Transcript.ToolOutput(id: "c1", toolName: "lookup", segments: [.text(.init(content: "found"))])),
    ]
    let tool = Transcript.ToolDefinition(name: "lookup", description: "Looks up.", parameters: Verdict.generationSchema)
    let options = GenerationOptions(
      samplingMode: .random(top: 5, seed: 7), maximumResponseTokens: 30, toolCallingMode: .required)
    let json = try body(request(transcript: entries, schema: Verdict.generationSchema, tools: [tool], options: options))
    let messages = try #require(json["messages"] as? [[String: Any]])
    #expect(messages.map { $0["role"] as? String } == ["system", "user", "assistant", "tool"])
    #expect(messages[2]["content"] as? String == "Looking.")
    let calls = try #require(messages[2]["tool_calls"] as? [[String: Any]])
    #expect((calls.first?["function"] as? [String: Any])?["arguments"] as? String == #"{"q":"x"}"#)
    #expect(messages[3]["tool_call_id"] as? String == "c1")
    // Tools are strict, as the schema is: vLLM constrains only strict tools' arguments.
    let sent = try #require((json["tools"] as? [[String: Any]])?.first?["function"] as? [String: Any])
    #expect(sent["strict"] as? Bool == true)
    #expect(sent["parameters"] is [String: Any])
    // `.required` holds until a tool has answered in the turn, as here.
    #expect(json["tool_choice"] as? String == "auto")
    let first = try body(request(transcript: Array(entries.prefix(2)), tools: [tool], options: options))
    #expect(first["tool_choice"] as? String == "required")
    #expect(json["top_k"] as? Int == 5)
    #expect(json["seed"] as? Int == 7)
    #expect(json["max_tokens"] as? Int == 30)
    #expect((json["stream_options"] as? [String: Any])?["include_usage"] as? Bool == true)
    let format = try #require(json["response_format"] as? [String: Any])
    #expect(format["type"] as? String == "json_schema")
    #expect((format["json_schema"] as? [String: Any])?["strict"] as? Bool == true)
  }

  /// `includeSchemaInPrompt` (true unless set false) asks for JSON of the schema in the last
  /// prompt, as a local model's prompt does; servers constrain to `response_format` only.
  @Test func theSchemaGoesInTheLastPromptUnlessLeftOut() throws {
    let prompt = { (text: String) in Transcript.Entry.prompt(Transcript.Prompt(segments: [.text(.init(content: text))]))
    }
    let answer = Transcript.Entry.response(Transcript.Response(assetIDs: [], segments: [.text(.init(content: "ok"))]))
    let entries = [prompt("First"), answer, prompt("Second")]
    let instruction = Verdict.generationSchema.promptInstruction
    func userTexts(_ context: ContextOptions) throws -> [String] {
      let json = try body(request(transcript: entries, schema: Verdict.generationSchema, context: context))
      let messages = try #require(json["messages"] as? [[String: Any]])
      return messages.filter { $0["role"] as? String == "user" }.compactMap { $0["content"] as? String }
    }
    #expect(try userTexts(ContextOptions()) == ["First", "Second\n\n" + instruction])
    #expect(try userTexts(ContextOptions(includeSchemaInPrompt: true)) == ["First", "Second\n\n" + instruction])
    #expect(try userTexts(ContextOptions(includeSchemaInPrompt: false)) == ["First", "Second"])
    let plain = try body(request(transcript: entries))
    #expect((plain["messages"] as? [[String: Any]])?.last?["content"] as? String == "Second")
  }

  /// The body is written member by member: each member once (greedy sampling's temperature
  /// replaces the options' own), numbers as the options hold them, and a non-finite number is an
  /// error rather than invalid JSON.
  @Test func theBodyHasEachMemberOnceAndExactNumbers() throws {
    let prompt = [Transcript.Entry.prompt(Transcript.Prompt(segments: [.text(.init(content: "Hi"))]))]
    func members(_ options: GenerationOptions) throws -> [JSONValue.Member] {
      let text = String(
        decoding: try ChatCompletionsRequest(model: "m", request: request(transcript: prompt, options: options)).body(),
        as: UTF8.self)
      guard case .object(let members) = try JSONValue(parsing: text) else {
        Issue.record("the body is not an object: \(text)")
        return []
      }
      return members
    }
    let greedy = try members(GenerationOptions(samplingMode: .greedy, temperature: 0.7))
    #expect(greedy.filter { $0.key == "temperature" }.map(\.value) == [.number(.zero)])
    #expect(Set(greedy.map(\.key)).count == greedy.count)
    let nucleus = try members(
      GenerationOptions(samplingMode: .random(probabilityThreshold: 0.9, seed: UInt64.max), temperature: 0.7))
    #expect(nucleus.first { $0.key == "temperature" }?.value.compactText == "0.7")
    #expect(nucleus.first { $0.key == "top_p" }?.value.compactText == "0.9")
    #expect(nucleus.first { $0.key == "seed" }?.value.compactText == "18446744073709551615")
    #expect(throws: EncodingError.self) { try members(GenerationOptions(temperature: .infinity)) }
  }

  /// Each reasoning level is sent as the `reasoning_effort` OpenAI's servers take; a custom
  /// level as written; no level, no member.
  @Test func reasoningLevelsMapToReasoningEffort() throws {
    let prompt = [Transcript.Entry.prompt(Transcript.Prompt(segments: [.text(.init(content: "Hi"))]))]
    func effort(_ level: ContextOptions.ReasoningLevel?) throws -> String? {
      try body(request(transcript: prompt, context: ContextOptions(reasoningLevel: level)))["reasoning_effort"]
        as? String
    }
    #expect(try effort(.light) == "low")
    #expect(try effort(.moderate) == "medium")
    #expect(try effort(.deep) == "high")
    #expect(try effort(.custom("minimal")) == "minimal")
    #expect(try effort(nil) == nil)
  }

  @Test func structuredOutputIsCheckedAgainstTheSchema() throws {
    try SchemaCheck.validate(#"{"answer":"yes","confidence":3}"#, against: Verdict.generationSchema)
    #expect(throws: LanguageModelError.self) {
      try SchemaCheck.validate(#"{"answer":"maybe","confidence":3}"#, against: Verdict.generationSchema)
    }
    #expect(throws: LanguageModelError.self) {
      try SchemaCheck.validate("Sure! The answer is yes.", against: Verdict.generationSchema)
    }
    // A schema from plain JSON Schema is sent, and checked, as that JSON Schema.
    let plain = try GenerationSchema(
      jsonSchema: #"{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}"#)
    let sent = String(decoding: try JSONEncoder().encode(plain), as: UTF8.self)
    #expect(sent.contains(#""required":["name"]"#))
    try SchemaCheck.validate(#"{"name":"red"}"#, against: plain)
    #expect(throws: LanguageModelError.self) { try SchemaCheck.validate(#"{"Dante":{"Lilith":1880}}"#, against: plain) }
  }

  @Test func malformedEventsAreAnErrorNotACrash() async throws {
    var events = ChatCompletionsEvents()
    let channel = LanguageModelExecutorGenerationChannel()
    await #expect(throws: RemoteModelError.self) { try await events.send("{not json", into: channel) }
    await #expect(throws: RemoteModelError.self) { try await events.send(#"["array"]"#, into: channel) }
    await #expect(throws: RemoteModelError.self) {
      try await events.send(#"{"error":{"message":"model crashed"}}"#, into: channel)
    }
  }

  @Test func toolCallFragmentsAreJoinedByIndexEvenWhenTheNameComesLate() async throws {
    var events = ChatCompletionsEvents()
    let channel = LanguageModelExecutorGenerationChannel()
    let chunks = [
      #"{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"q\":"}}]}}]}"#,
      #"{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"lookup","arguments":"\"x\"}"}}]}}]}"#,
    ]
    let collected = Task {
      var fragments: [String] = []
      for try await event in channel {
        if let calls = event as? LanguageModelExecutorGenerationChannel.ToolCalls,
          case .toolCall(let call) = calls.action, case .appendArguments(let fragment) = call.action
        {
          #expect(call.name == "lookup")
          #expect(call.id == "a")
          fragments.append(fragment.content)
        }
      }
      return fragments.joined()
    }
    for chunk in chunks { try await events.send(chunk, into: channel) }
    try events.finish()
    channel.finish()
    #expect(try await collected.value == #"{"q":"x"}"#)
  }

  @Test func httpErrorsBecomeTheErrorsTheyStandFor() {
    let limited = RemoteModelError.from(
      status: 429, body: Data(#"{"error":{"message":"slow down"}}"#.utf8), retryAfter: 2)
    guard case .rateLimited(let info)? = limited as? LanguageModelError else {
      Issue.record("429 is not rateLimited: \(limited)")
      return
    }
    #expect(info.debugDescription == "slow down")
    let full = RemoteModelError.from(
      status: 400,
      body: Data(
        #"{"error":{"type":"exceed_context_size_error","message":"too long","n_ctx":512,"n_prompt_tokens":900}}"#.utf8),
      retryAfter: nil)
    guard case .contextSizeExceeded(let sizes)? = full as? LanguageModelError else {
      Issue.record("not contextSizeExceeded: \(full)")
      return
    }
    #expect(sizes.contextSize == 512 && sizes.tokenCount == 900)
    let other = RemoteModelError.from(status: 500, body: Data("boom".utf8), retryAfter: nil)
    #expect("\(other)".contains("500") && "\(other)".contains("boom"))
  }

  @Test func retriesBackOffAndHonourRetryAfter() throws {
    let policy = RetryPolicy(maximumRetries: 2, baseDelay: 0.5, longestWait: 30)
    #expect(policy.delay(beforeRetry: 1, retryAfter: nil, jitter: 1) == 0.5)
    #expect(policy.delay(beforeRetry: 2, retryAfter: nil, jitter: 1) == 1.0)
    #expect(policy.delay(beforeRetry: 3, retryAfter: nil, jitter: 1) == nil)
    #expect(policy.delay(beforeRetry: 1, retryAfter: 4) == 4)
    #expect(policy.delay(beforeRetry: 1, retryAfter: 300) == nil)
    let response = try #require(
      HTTPURLResponse(
        url: URL(string: "http://x")!, statusCode: 429, httpVersion: nil, headerFields: ["Retry-After": "3"]))
    #expect(RetryPolicy.retryAfter(response) == 3)
    #expect(RetryPolicy.isRetryable(status: 503) && !RetryPolicy.isRetryable(status: 500))
  }
}
