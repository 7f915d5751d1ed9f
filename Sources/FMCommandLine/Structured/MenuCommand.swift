import Foundation
import FoundationModels

/// `fm menu --ingredients "lamb, salmon, duck"`: the book's lunch special, generated with a
/// schema built at run time (`DynamicGenerationSchema`) whose ingredient is one of the user's.
enum MenuCommand: Subcommand {
  static let name = "menu"
  static let abstract = "Generate a lunch special from your ingredients (a schema built at run time)."
  static let synopsis = "--ingredients \"A, B, C\""
  static let discussion = """
    Builds a DynamicGenerationSchema with the comma-separated ingredients as an anyOf choice,
    as the book's menu app does, and prints the special: name, description, ingredient and
    price. --stream shows it filling in as it is generated; --json prints the raw object.
    """
  static let options: [CommandLineOption] =
    [
      .option("--ingredients", value: "LIST", help: "comma-separated ingredients to choose from"),
      .flag("--stream", help: "show the special while it is generated"),
      .flag("--json", help: "print the generated object as JSON"),
    ] + ModelOptions.options + ModelOptions.endpointOptions

  static let instructions = "You are a helpful model assisting with generating realistic restaurant menus."
  static let prompt = "Produce a lunch special menu item that is focused on the specified ingredient."

  /// The book's `specialmenuitem` schema.
  static func schema(ingredients: [String]) throws -> GenerationSchema {
    let special = DynamicGenerationSchema(
      name: "specialmenuitem",
      properties: [
        .init(name: "ingredients", schema: DynamicGenerationSchema(name: "ingredients", anyOf: ingredients)),
        .init(name: "name", schema: DynamicGenerationSchema(type: String.self)),
        .init(name: "description", schema: DynamicGenerationSchema(type: String.self)),
        .init(name: "price", schema: DynamicGenerationSchema(type: Decimal.self)),
      ])
    return try GenerationSchema(root: special, dependencies: [])
  }

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    let list = arguments.value("--ingredients") ?? ""
    let ingredients = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    guard !ingredients.isEmpty else { throw UsageError("'fm menu' needs --ingredients \"A, B, C\"") }
    guard arguments.positionals.isEmpty else { throw UsageError("'fm menu' takes no PROMPT") }
    let settings = try ModelOptions(arguments, environment: context.environment)
    let schema = try schema(ingredients: ingredients)
    let session = try await settings.session(arguments, environment: context.environment, instructions: instructions)
    let json = arguments.flag("--json")
    let stream = arguments.flag("--stream")
    let response = try await InterruptSignal.cancellingOnInterrupt {
      let responses = session.streamResponse(to: prompt, schema: schema, options: settings.generation)
      if stream {
        var live = LiveText(output: context.standardOutput)
        for try await snapshot in responses {
          live.show(json ? snapshot.rawContent.jsonString : render(snapshot.rawContent))
        }
      }
      return try await responses.collect()
    }
    if !stream { context.standardOutput.line(json ? response.rawContent.jsonString : render(response.content)) }
    return .success
  }

  /// The special as a small card; properties not generated yet show as "…".
  static func render(_ special: GeneratedContent) -> String {
    func text(_ property: String) -> String {
      ((try? special.value(String?.self, forProperty: property)) ?? nil) ?? "…"
    }
    let price = ((try? special.value(Decimal?.self, forProperty: "price")) ?? nil).map { "$\($0)" } ?? "…"
    return """
      Today's Special: \(text("name"))
        \(text("description"))
        Ingredient: \(text("ingredients"))
        Price: \(price)
      """
  }
}
