import JSON

extension ChatTemplate {
  /// `tools` with an empty `description` given to each function and each of its parameters
  /// that has none, or nil where every one has one.
  ///
  /// Some templates add a tool's or a parameter's description to text with `+` (Hermes 2
  /// Pro's, gpt-oss's and Apertus's tools; Command R+'s tool-use template its parameters),
  /// which jinja2 (and so our engine) cannot do with an undefined value, and OpenAI's API makes
  /// descriptions optional: where such a template raises, the request is rendered again with
  /// these, as llama.cpp's lenient engine would have rendered it.
  static func describing(_ tools: [JSONValue]) -> [JSONValue]? {
    var added = false
    func described(_ value: JSONValue) -> JSONValue {
      guard case .object(var members) = value else { return value }
      if value["description"] == nil {
        members.append(.init(key: "description", value: .string("")))
        added = true
      }
      return .object(members)
    }
    func replacing(_ key: String, in value: JSONValue, by transform: (JSONValue) -> JSONValue) -> JSONValue {
      guard case .object(let members) = value else { return value }
      return .object(members.map { $0.key == key ? .init(key: key, value: transform($0.value)) : $0 })
    }
    let tools = tools.map { tool in
      replacing("function", in: tool) { function in
        replacing("parameters", in: described(function)) { parameters in
          replacing("properties", in: parameters) { properties in
            guard case .object(let members) = properties else { return properties }
            return .object(members.map { .init(key: $0.key, value: described($0.value)) })
          }
        }
      }
    }
    return added ? tools : nil
  }
}
