import InferenceEngine

/// Malformed requests for the fuzz run: valid requests of every route, each broken by one
/// mutation drawn from a seeded generator (so a run can be repeated).
struct RequestMutator {
  /// One request to send, and whether its mutation always makes it malformed (a byte flipped
  /// inside a JSON string may leave it valid).
  struct Case: Sendable {
    var kind: String
    var bytes: [UInt8]
    var certainlyMalformed: Bool
  }

  let model: String
  var random: SeededRandom

  init(model: String, seed: UInt64) {
    self.model = model
    random = SeededRandom(seed: seed)
  }

  private var bodies: [(path: String, body: String)] {
    [
      ("/v1/chat/completions", #"{"model":"\#(model)","messages":[{"role":"user","content":"Hi"}],"max_tokens":1}"#),
      (
        "/v1/chat/completions",
        #"{"model":"\#(model)","messages":[{"role":"user","content":"Hi"}],"max_tokens":1,"stream":true,"response_format":{"type":"json_object"}}"#
      ),
      ("/v1/responses", #"{"model":"\#(model)","input":"Hi","max_output_tokens":1}"#),
      (
        "/v1/responses",
        #"{"model":"\#(model)","input":[{"role":"user","content":"Hi"}],"max_output_tokens":1,"stream":true,"text":{"format":{"type":"json_object"}}}"#
      ),
      ("/v1/messages", #"{"model":"\#(model)","max_tokens":1,"messages":[{"role":"user","content":"Hi"}]}"#),
      (
        "/v1/messages",
        #"{"model":"\#(model)","max_tokens":1,"system":"Be brief.","stream":true,"messages":[{"role":"user","content":[{"type":"text","text":"Hi"}]}]}"#
      ),
      ("/v1/messages/count_tokens", #"{"model":"\#(model)","messages":[{"role":"user","content":"Hi"}]}"#),
      ("/v1/completions", #"{"model":"\#(model)","prompt":"Once upon a time","max_tokens":1,"logprobs":2}"#),
      ("/tokenize", #"{"content":"hello world"}"#),
      ("/detokenize", #"{"tokens":[1,2,3]}"#),
      ("/apply-template", #"{"messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Hi"}]}"#),
    ]
  }

  static func request(_ method: String, _ path: String, headers: [String], body: [UInt8]) -> [UInt8] {
    Array(([method + " " + path + " HTTP/1.1", "Host: localhost"] + headers).joined(separator: "\r\n").utf8)
      + Array("\r\n\r\n".utf8) + body
  }

  mutating func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
  mutating func number(_ below: Int) -> Int { Int(random.next() % UInt64(below)) }

  /// The next case.
  mutating func next() -> Case {
    let (path, text) = pick(bodies)
    let body = Array(text.utf8)
    let length = "Content-Length: \(body.count)"
    switch number(20) {
    case 0:
      let method = pick(["G@T", "PO ST", "", "\u{1}GET", "POST\t", String(repeating: "P", count: 300)])
      return Case(
        kind: "method", bytes: Self.request(method, path, headers: [length], body: body), certainlyMalformed: true)
    case 1:
      return Case(
        kind: "unknown-method",
        bytes: Self.request(pick(["PUT", "DELETE", "PATCH", "TRACE"]), path, headers: [length], body: body),
        certainlyMalformed: true)
    case 2:
      let line = pick([
        "POST \(path)", "POST  \(path) HTTP/1.1", "POST \(path) HTTP/1.1 extra", "POST \(path) HTTP/9.9",
        "POST \(path) HTTP/1", "POST \(path.dropFirst()) HTTP/1.1", "POST /\u{7f}x HTTP/1.1",
        "POST /" + String(repeating: "a", count: 9000) + " HTTP/1.1",
      ])
      return Case(
        kind: "request-line", bytes: Array((line + "\r\n\(length)\r\n\r\n").utf8) + body, certainlyMalformed: true)
    case 3:
      let header = pick(["NoColon", "Bad Name: 1", "X: a\u{0}b", ": empty", "X\u{1}: 1", " Folded: 1"])
      return Case(
        kind: "header", bytes: Self.request("POST", path, headers: [length, header], body: body),
        certainlyMalformed: true)
    case 4:
      let many = (0..<(101 + number(100))).map { "X-\($0): \($0)" }
      return Case(
        kind: "header-count", bytes: Self.request("POST", path, headers: many, body: body), certainlyMalformed: true)
    case 5:
      let huge = "X-Huge: " + String(repeating: "h", count: 33_000 + number(10_000))
      return Case(
        kind: "header-size", bytes: Self.request("POST", path, headers: [huge], body: body), certainlyMalformed: true)
    case 6:
      let lengths = pick([
        ["Content-Length: \(body.count)", "Content-Length: \(body.count + 1)"],
        ["Content-Length: \(body.count)", "Transfer-Encoding: chunked"], ["Content-Length: -1"],
        ["Content-Length: 0x10"], ["Content-Length: 1 2"], ["Transfer-Encoding: gzip"],
        ["Content-Length: 99999999999"], ["Content-Length: \(9 * 1024 * 1024)"],
      ])
      return Case(
        kind: "length", bytes: Self.request("POST", path, headers: lengths, body: body), certainlyMalformed: true)
    case 7:
      let cut = body.count / 2 + number(body.count / 2)
      return Case(
        kind: "short-length", bytes: Self.request("POST", path, headers: ["Content-Length: \(cut)"], body: body),
        certainlyMalformed: true)
    case 8:
      let chunked = pick([
        "zz\r\n\(text)\r\n0\r\n\r\n", "\(String(body.count + 5, radix: 16))\r\n\(text)\r\n0\r\n\r\n",
        "\(String(body.count, radix: 16))\r\n\(text)XX0\r\n\r\n", "-1\r\n\r\n",
        "\(String(body.count, radix: 16))\r\n\(text)",
      ])
      return Case(
        kind: "chunked",
        bytes: Self.request("POST", path, headers: ["Transfer-Encoding: chunked"], body: Array(chunked.utf8)),
        certainlyMalformed: true)
    case 9:
      let truncated = Array(body.prefix(number(body.count - 1)))
      return Case(kind: "json-truncated", bytes: post(path, truncated), certainlyMalformed: true)
    case 10:
      var flipped = body
      flipped[number(flipped.count)] = UInt8(truncatingIfNeeded: random.next())
      return Case(kind: "json-byte", bytes: post(path, flipped), certainlyMalformed: false)
    case 11:
      var unknown = text
      unknown.removeLast()
      unknown += #","zzz_\#(number(1000))":\#(pick(["1", "null", "\"x\"", "[]"]))}"#
      return Case(kind: "json-unknown-key", bytes: post(path, Array(unknown.utf8)), certainlyMalformed: true)
    case 12:
      let retyped = pick([
        (#""max_tokens":1"#, #""max_tokens":"one""#), (#""content":"Hi""#, #""content":7"#),
        (#""messages":["#, #""messages":{"a":["#), (#""tokens":[1,2,3]"#, #""tokens":[1.5,"x"]"#),
        (#""content":"hello world""#, #""content":["hello"]"#), (#""max_tokens":1"#, #""max_tokens":-4"#),
        (#""role":"user""#, #""role":"robot""#), (#""max_tokens":1"#, #""max_tokens":1,"n":3"#),
      ])
      let changed = text.replacingOccurrences(of: retyped.0, with: retyped.1)
      // A replacement that does not apply leaves a valid request: another mutation then.
      guard changed != text else { return Case(kind: "json-empty", bytes: post(path, []), certainlyMalformed: true) }
      return Case(kind: "json-type", bytes: post(path, Array(changed.utf8)), certainlyMalformed: true)
    case 13:
      let depth = 100 + number(2000)
      let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
      return Case(
        kind: "json-deep", bytes: post(path, Array(#"{"content":\#(nested)}"#.utf8)), certainlyMalformed: true)
    case 14:
      var duplicated = text
      duplicated.removeLast()
      duplicated += text.hasPrefix(#"{"model""#) ? #","model":"x"}"# : #","content":"y","tokens":[1],"messages":[]}"#
      return Case(kind: "json-duplicate-key", bytes: post(path, Array(duplicated.utf8)), certainlyMalformed: true)
    case 15:
      let other = pick(["[]", "42", "\"text\"", "null", "", "{", "\u{FEFF}{}", "{\"a\":1}{"])
      return Case(kind: "json-not-object", bytes: post(path, Array(other.utf8)), certainlyMalformed: true)
    case 16:
      var invalid = body
      invalid.insert(contentsOf: [0xC3, 0x28, 0xFF], at: 10)
      return Case(kind: "json-utf8", bytes: post(path, invalid), certainlyMalformed: true)
    case 17:
      let schema = pick([
        #"{"type":"nonsense"}"#, ##"{"type":"object","properties":{"a":{"$ref":"#/nowhere"}}}"##,
        #"{"type":"string","pattern":"(("}"#, #"{"minimum":"x"}"#, "[]",
      ])
      let body =
        #"{"model":"\#(model)","messages":[{"role":"user","content":"Hi"}],"max_tokens":1,"response_format":{"type":"json_schema","json_schema":{"name":"x","schema":\#(schema)}}}"#
      return Case(kind: "schema", bytes: post("/v1/chat/completions", Array(body.utf8)), certainlyMalformed: true)
    case 18:
      let garbage = (0..<(1 + number(200))).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      return Case(kind: "garbage", bytes: garbage + [13, 10, 13, 10], certainlyMalformed: true)
    default:
      let wrongPath = pick(["/v2/chat", "/v1/chat/completions/x", "/%00", "/v1/models/../../etc"])
      return Case(
        kind: "path", bytes: Self.request("POST", wrongPath, headers: [length], body: body), certainlyMalformed: true)
    }
  }

  private func post(_ path: String, _ body: [UInt8]) -> [UInt8] {
    Self.request(
      "POST", path, headers: ["Content-Type: application/json", "Content-Length: \(body.count)"], body: body)
  }
}
