import JSON

/// `fm schema`, as Apple's `fm` on macOS 27 has it: builds JSON Schemas for `fm respond --schema`.
enum SchemaCommand: Subcommand {
  static let name = "schema"
  static let abstract = "Build a JSON Schema for 'fm respond --schema' from flags."
  static let subcommands: [any Subcommand.Type] = [SchemaObjectCommand.self]

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    throw UsageError("'fm schema' needs a kind: object (see 'fm schema object --help')")
  }
}

/// `fm schema object --name NAME [--string P] [--integer P] … [modifiers]`: an object's JSON
/// Schema. Each modifier applies to the property before it; Apple's spelling of the output (the
/// name as `title`, `additionalProperties: false`) is inferred, not documented.
enum SchemaObjectCommand: Subcommand {
  static let name = "object"
  static let abstract = "Print the JSON Schema of an object whose properties the flags list, in order."
  static let synopsis = "--name NAME [PROPERTY...]"
  static let discussion = """
    Properties: --string, --integer, --double, --boolean NAME; --object NAME (with --schema JSON
    for its schema, or members added with dot notation, such as --string address.street);
    --anyOf NAME with a --schema JSON for each choice. After a property: --array (a list of
    it), --optional (not required), --description TEXT; a --description before the first
    property describes the object. Properties are required and come in the order given
    (x-order); the object takes no others.
    """
  static let options: [CommandLineOption] = [
    .option("--name", value: "NAME", help: "the object's name (its title)"),
    .option("--string", value: "NAME", help: "a string property"),
    .option("--integer", value: "NAME", help: "an integer property"),
    .option("--double", value: "NAME", help: "a number property"),
    .option("--boolean", value: "NAME", help: "a Boolean property"),
    .option("--object", value: "NAME", help: "an object property (its --schema, or members by dot notation)"),
    .option("--anyOf", value: "NAME", help: "a property that is one of the --schema given after it"),
    .option("--schema", value: "JSON", help: "the schema of the --object or a choice of the --anyOf before it"),
    .flag("--array", help: "the property before is a list of such values"),
    .flag("--optional", help: "the property before may be left out"),
    .option("--description", value: "TEXT", help: "describes the property before (or the object)"),
  ]

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    _ = try arguments.positionals(named: [], command: "fm schema object")
    guard let name = arguments.value("--name") else { throw UsageError("'fm schema object' needs --name NAME") }
    var builder = SchemaObjectBuilder(title: name)
    var last: (path: [String], kind: String, choices: [JSONValue])?
    func path(_ name: String) -> [String] {
      name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }
    func types(_ type: String) -> JSONValue { .object([.init(key: "type", value: .string(type))]) }
    func modify(_ flag: String, _ change: (inout SchemaObjectBuilder.Property) throws -> Void) throws {
      guard let last else { throw UsageError("\(flag) needs a property before it") }
      try builder.modify(last.path, change)
    }
    for option in arguments.given where option.key != "--name" {
      let value = option.value ?? ""
      switch option.key {
      case "--string", "--integer", "--double", "--boolean":
        let type = ["--string": "string", "--integer": "integer", "--double": "number", "--boolean": "boolean"]
        try builder.add(.schema(types(type[option.key] ?? "string")), at: path(value))
        last = (path(value), option.key, [])
      case "--object":
        try builder.add(.object(SchemaObjectBuilder()), at: path(value))
        last = (path(value), option.key, [])
      case "--anyOf":
        try builder.add(.schema(.object([.init(key: "anyOf", value: .array([]))])), at: path(value))
        last = (path(value), option.key, [])
      case "--schema":
        guard var property = last, property.kind == "--object" || property.kind == "--anyOf" else {
          throw UsageError("--schema needs an --object or --anyOf property before it")
        }
        let schema: JSONValue
        do { schema = try JSONValue(parsing: value) } catch { throw UsageError("--schema is not JSON: \(error)") }
        property.choices.append(schema)
        let kind = property.kind
        let choices = property.choices
        guard kind == "--anyOf" || choices.count == 1 else { throw UsageError("an --object takes one --schema") }
        try builder.modify(property.path) { target in
          target.value = .schema(kind == "--object" ? schema : .object([.init(key: "anyOf", value: .array(choices))]))
        }
        last = property
      case "--array": try modify("--array") { $0.isArray = true }
      case "--optional": try modify("--optional") { $0.isOptional = true }
      case "--description":
        if last == nil { builder.description = value } else { try modify("--description") { $0.description = value } }
      default: break
      }
    }
    context.standardOutput.line(builder.schema.indentedText())
    return .success
  }
}
