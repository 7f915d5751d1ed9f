import Foundation
import GuidedDecoding
import JSON

/// The tool-use set of P12 (`bench/tool-use/set.json`): the system text, the tools with their
/// schemas and canned outputs, and the prompts with the calls each one expects.
struct ToolUseSet {
  /// The system text both sides give the model.
  var instructions: String
  var tools: [ToolSpec]
  var prompts: [ToolUsePrompt]

  /// Reads the set, keeping each schema's property order (it decides the order in which
  /// arguments are generated and how the tools are described to the model).
  /// - Throws: `BenchError` naming what is missing or malformed.
  init(contentsOf url: URL) throws {
    guard let data = FileManager.default.contents(atPath: url.path) else {
      throw BenchError("no tool-use set at \(url.path) (--set PATH)")
    }
    let root = try JSONValue(parsing: data)
    guard let instructions = root["instructions"]?.stringValue, let tools = root["tools"]?.arrayValue,
      let prompts = root["prompts"]?.arrayValue
    else { throw BenchError("\(url.path): the set needs instructions, tools and prompts") }
    self.instructions = instructions
    self.tools = try tools.map(ToolSpec.init)
    self.prompts = try prompts.map(ToolUsePrompt.init)
  }

  /// The tool named `name`, if the set has one.
  func tool(named name: String) -> ToolSpec? { tools.first { $0.name == name } }
}

/// One tool of the set: what the model is told about it and what the fake tool answers.
struct ToolSpec {
  var name: String
  var description: String
  /// The JSON Schema of the arguments, compact, properties in the file's order.
  var parametersText: String
  /// The names of the schema's properties, in the file's order.
  var propertyNames: [String]
  /// The schema as the validator reads it.
  var parameters: SchemaDocument
  /// The canned output; each `{argument}` is replaced by the call's value.
  var outputTemplate: String

  init(_ value: JSONValue) throws {
    guard let name = value["name"]?.stringValue, let description = value["description"]?.stringValue,
      let parameters = value["parameters"], let output = value["output"]?.stringValue
    else { throw BenchError("a tool needs name, description, parameters and output: \(value.compactText)") }
    self.name = name
    self.description = description
    self.parametersText = parameters.compactText
    if case .object(let properties) = parameters["properties"] {
      propertyNames = properties.map(\.key)
    } else {
      propertyNames = []
    }
    self.parameters = try JSONSchemaParser().parse(parameters)
    self.outputTemplate = output
  }

  /// The tool as an OpenAI chat-completions `tools` element.
  var openAIFunction: JSONValue {
    .object([
      .init(key: "type", value: .string("function")),
      .init(
        key: "function",
        value: .object([
          .init(key: "name", value: .string(name)), .init(key: "description", value: .string(description)),
          .init(key: "parameters", value: (try? JSONValue(parsing: parametersText)) ?? .null),
        ])),
    ])
  }

  /// The canned output for a call with `arguments` (a JSON object): strings go in as they
  /// are, other values as JSON.
  func output(for arguments: JSONValue?) -> String {
    guard case .object(let members) = arguments else { return outputTemplate }
    var text = outputTemplate
    for member in members {
      let value = member.value.stringValue ?? member.value.compactText
      text = text.replacingOccurrences(of: "{\(member.key)}", with: value)
    }
    return text
  }

  /// Whether `arguments` (JSON text) parse and satisfy the tool's schema.
  func accepts(_ arguments: String) -> Bool {
    guard let value = try? JSONValue(parsing: arguments.trimmingCharacters(in: .whitespacesAndNewlines)) else {
      return false
    }
    return (try? SchemaValidator(definitions: parameters.definitions).validate(value, against: parameters.root))
      ?? false
  }
}

/// One prompt of the set and the calls it should lead to (none for a prompt that needs no tool).
struct ToolUsePrompt {
  /// `single` (one call), `parallel` (two calls in one turn) or `none` (no call).
  enum Kind: String { case single, parallel, none }

  /// A call the prompt should lead to.
  ///
  /// Only `arguments` are checked; `unchecked` completes them to a call the tool's schema
  /// accepts, for the tool round that P12 (a) replays.
  struct ExpectedCall {
    var tool: String
    var arguments: [JSONValue.Member]
    var unchecked: [JSONValue.Member]
  }

  var id: String
  var kind: Kind
  var prompt: String
  var expected: [ExpectedCall]

  init(_ value: JSONValue) throws {
    guard let id = value["id"]?.stringValue, let kind = value["kind"]?.stringValue.flatMap(Kind.init),
      let prompt = value["prompt"]?.stringValue, let expected = value["expected"]?.arrayValue
    else {
      throw BenchError("a prompt needs id, kind (single|parallel|none), prompt and expected: \(value.compactText)")
    }
    self.id = id
    self.kind = kind
    self.prompt = prompt
    self.expected = try expected.map { call in
      guard let tool = call["tool"]?.stringValue, case .object(let arguments) = call["arguments"] ?? .object([]),
        case .object(let unchecked) = call["unchecked"] ?? .object([])
      else {
        throw BenchError(
          "\(id): an expected call needs tool and an arguments object (and unchecked, if any, an object)")
      }
      return ExpectedCall(tool: tool, arguments: arguments, unchecked: unchecked)
    }
  }
}

extension JSONValue {
  var stringValue: String? {
    if case .string(let text) = self { text } else { nil }
  }

  var arrayValue: [JSONValue]? {
    if case .array(let elements) = self { elements } else { nil }
  }

  var intValue: Int? {
    if case .number(let number) = self { Int(number.jsonText) } else { nil }
  }
}
