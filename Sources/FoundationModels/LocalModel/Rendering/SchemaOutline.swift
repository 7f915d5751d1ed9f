import GuidedDecoding
import JSON

/// A schema described for the model as a compact, TypeScript-like outline.
///
/// `includeSchemaInPrompt` puts the schema in the prompt "to bias the model"; Apple does not
/// document the wording. Constrained decoding enforces the structure either way, so the prompt
/// only has to tell the model what each value means. An outline does that in about two thirds
/// of the tokens of the schema's JSON, and prompt tokens are most of the time to a short
/// object on a CPU:
///
/// ```
/// {
///   "topic": string, // The topic to analyze mentions for
///   "platforms"?: string[] (at most 3 items),
///   "range": DateRange
/// }
/// DateRange = {
///   "start": string (date)
/// }
/// ```
///
/// Keys are listed in generation order (`x-order` when present); `?` marks optional keys;
/// descriptions follow `//`; guides appear in parentheses; named definitions follow the root.
/// Both Apple's dialect and plain JSON Schema are read. Keywords the outline does not know
/// are left out: the constraint still enforces them.
struct SchemaOutline {
  private var definitions: JSONValue?
  private var pendingDefinitions: [String] = []
  private var seenDefinitions: Set<String> = []

  /// The outline of a JSON Schema, or nil when the text is not a JSON object.
  static func text(ofJSONSchema text: String) -> String? {
    guard let schema = try? JSONValue(parsing: text), case .object = schema else { return nil }
    var outline = SchemaOutline(definitions: schema["$defs"] ?? schema["definitions"])
    var lines: [String] = []
    if case .string(let description)? = schema["description"] { lines.append("// " + description) }
    lines.append(outline.type(of: schema, indent: ""))
    while !outline.pendingDefinitions.isEmpty {
      let name = outline.pendingDefinitions.removeFirst()
      guard let node = outline.definitions?[name] else { continue }
      var line = name + " = " + outline.type(of: node, indent: "")
      if case .string(let description)? = node["description"] { line += " // " + description }
      lines.append(line)
    }
    return lines.joined(separator: "\n")
  }

  /// The type of `node` as written after a key; nested lines are indented by `indent`.
  private mutating func type(of node: JSONValue, indent: String) -> String {
    guard case .object = node else { return node == .bool(false) ? "never" : "any JSON value" }
    if case .string(let reference)? = node["$ref"] { return name(ofReference: reference) }
    if let constant = node["const"] { return constant.compactText }
    if case .array(let values)? = node["enum"] { return values.map(\.compactText).joined(separator: " | ") }
    for keyword in ["anyOf", "oneOf"] {
      if case .array(let branches)? = node[keyword] {
        return branches.map { type(of: $0, indent: indent) }.joined(separator: " | ")
      }
    }
    switch node["type"] {
    case .string(let name)?: return type(named: name, of: node, indent: indent)
    case .array(let names)?:
      return names.compactMap { name in
        guard case .string(let name) = name else { return nil }
        return type(named: name, of: node, indent: indent)
      }.joined(separator: " | ")
    default:
      return node["properties"] != nil ? object(node, indent: indent) : "any JSON value"
    }
  }

  private mutating func type(named name: String, of node: JSONValue, indent: String) -> String {
    switch name {
    case "object": return object(node, indent: indent)
    case "array": return array(node, indent: indent)
    case "string": return "string" + Self.guides(stringGuides(node))
    case "integer", "number": return name + Self.guides(numberGuides(node))
    default: return name
    }
  }

  private mutating func object(_ node: JSONValue, indent: String) -> String {
    guard case .object(let properties)? = node["properties"], !properties.isEmpty else {
      if let additional = node["additionalProperties"], additional != .bool(false) {
        return "{ [key: string]: " + type(of: additional == .bool(true) ? .object([]) : additional, indent: indent)
          + " }"
      }
      return "{}"
    }
    let required = Set(Self.strings(node["required"]))
    let order = Self.strings(node["x-order"])
    let ordered =
      order.isEmpty
      ? properties : order.compactMap { key in properties.first { $0.key == key } }
    let inner = indent + "  "
    var lines: [String] = []
    for (index, property) in ordered.enumerated() {
      var line = inner + quoted(property.key) + (required.contains(property.key) ? "" : "?") + ": "
      line += type(of: property.value, indent: inner)
      if index < ordered.count - 1 { line += "," }
      if case .string(let description)? = property.value["description"] { line += " // " + description }
      lines.append(line)
    }
    return "{\n" + lines.joined(separator: "\n") + "\n" + indent + "}"
  }

  private mutating func array(_ node: JSONValue, indent: String) -> String {
    let counts = Self.range(
      node["minItems"].flatMap(Self.integer), node["maxItems"].flatMap(Self.integer), unit: "items")
    let countGuide = Self.guides(counts.map { [$0] } ?? [])
    if case .array(let prefix)? = node["prefixItems"] {
      var elements = prefix.map { type(of: $0, indent: indent) }
      if let rest = node["items"], rest != .bool(false) { elements.append("..." + type(of: rest, indent: indent)) }
      return "[" + elements.joined(separator: ", ") + "]" + countGuide
    }
    var element = node["items"].map { type(of: $0, indent: indent) } ?? "any JSON value"
    if element.contains(" | ") || element.hasSuffix(")") { element = "(" + element + ")" }
    return element + "[]" + countGuide
  }

  private func stringGuides(_ node: JSONValue) -> [String] {
    var guides: [String] = []
    if case .string(let format)? = node["format"] { guides.append(format) }
    if case .string(let pattern)? = node["pattern"] { guides.append("pattern /" + pattern + "/") }
    let lengths = Self.range(
      node["minLength"].flatMap(Self.integer), node["maxLength"].flatMap(Self.integer), unit: "characters")
    if let lengths { guides.append(lengths) }
    return guides
  }

  private func numberGuides(_ node: JSONValue) -> [String] {
    var guides: [String] = []
    let minimum = node["minimum"]?.compactText
    let maximum = node["maximum"]?.compactText
    if let minimum, let maximum {
      guides.append(minimum + " to " + maximum)
    } else if let minimum {
      guides.append("at least " + minimum)
    } else if let maximum {
      guides.append("at most " + maximum)
    }
    if let bound = node["exclusiveMinimum"], case .number = bound { guides.append("above " + bound.compactText) }
    if let bound = node["exclusiveMaximum"], case .number = bound { guides.append("below " + bound.compactText) }
    return guides
  }

  /// `Name` for `#/$defs/Name`, queued to be written after the root.
  private mutating func name(ofReference reference: String) -> String {
    guard reference != "#" else { return "(the whole object)" }
    let name = String(reference.split(separator: "/").last ?? Substring(reference))
    if definitions?[name] != nil, seenDefinitions.insert(name).inserted { pendingDefinitions.append(name) }
    return name
  }

  private func quoted(_ key: String) -> String {
    JSONValue.string(key).compactText
  }

  private static func guides(_ guides: [String]) -> String {
    guides.isEmpty ? "" : " (" + guides.joined(separator: ", ") + ")"
  }

  private static func range(_ minimum: Int?, _ maximum: Int?, unit: String) -> String? {
    switch (minimum.flatMap { $0 > 0 ? $0 : nil }, maximum) {
    case (let low?, let high?): return low == high ? "exactly \(low) \(unit)" : "\(low) to \(high) \(unit)"
    case (let low?, nil): return "at least \(low) \(unit)"
    case (nil, let high?): return "at most \(high) \(unit)"
    case (nil, nil): return nil
    }
  }

  private static func integer(_ value: JSONValue) -> Int? {
    guard case .number = value else { return nil }
    return Int(value.compactText)
  }

  private static func strings(_ value: JSONValue?) -> [String] {
    guard case .array(let values)? = value else { return [] }
    return values.compactMap { value in
      if case .string(let text) = value { return text }
      return nil
    }
  }
}
