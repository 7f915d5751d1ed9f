import Foundation
import ModelStore
import RemoteModel

/// `fm models`: lists the catalogue with size, whether each model is present, and its path.
enum ModelsCommand: Subcommand {
  static let name = "models"
  static let abstract = "List the models, their size, and whether they are downloaded."
  static let discussion = """
    Models live in $FM_MODELS_DIR, else $XDG_CACHE_HOME/foundationmodels-linux/models,
    else ~/.cache/foundationmodels-linux/models. Models pulled from Hugging Face
    (fm models pull hf:OWNER/REPO[:QUANT]) follow the catalogue, named by the reference that
    loads them. Any command that takes a model name also takes such a reference or a path to
    a .gguf file. With --endpoint URL (or FM_ENDPOINT), lists the models an OpenAI-compatible
    server offers instead.
    """
  static let options: [CommandLineOption] = ModelOptions.endpointOptions
  static var subcommands: [any Subcommand.Type] {
    [ModelsPullCommand.self, ModelsPathCommand.self, ModelsRemoveCommand.self]
  }

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    _ = try arguments.positionals(named: [], command: "fm models")
    let out = context.standardOutput
    if let endpoint = try ModelOptions.endpoint(arguments, environment: context.environment) {
      let server = OpenAICompatibleLanguageModel(
        baseURL: endpoint, model: "", apiKey: arguments.value("--api-key") ?? context.environment["FM_API_KEY"])
      for name in try await server.availableModels() { out.line(name) }
      return .success
    }
    let store = context.modelStore
    let catalogue = ModelCatalog.all.map { model in
      Row(
        name: model.name, size: ByteCountFormat.string(model.byteCount), present: store.isPresent(model),
        path: store.path(for: model).path, role: role(of: model))
    }
    let pulled = store.pulledHubModels().map { model in
      Row(
        name: model.reference.description, size: ByteCountFormat.string(model.byteCount), present: true,
        path: model.path.path, role: model.files.count > 1 ? "\(model.files.count) parts" : "")
    }
    let rows = catalogue + pulled
    let nameWidth = max(4, rows.map { $0.name.count }.max() ?? 0)
    let sizeWidth = max(4, rows.map { $0.size.count }.max() ?? 0)
    let header = "\(pad("NAME", nameWidth))  \(pad("SIZE", sizeWidth))  \(pad("STATUS", 7))  PATH"
    out.line(out.styled(header, .bold))
    for row in rows {
      let status = out.styled(pad(row.present ? "present" : "absent", 7), row.present ? .green : .yellow)
      let role = row.role.isEmpty ? "" : "  " + out.styled("(\(row.role))", .dim)
      out.line("\(pad(row.name, nameWidth))  \(pad(row.size, sizeWidth))  \(status)  \(row.path)\(role)")
    }
    // Hints are chrome: a script reading the table gets only the table.
    if out.isTerminal, rows.contains(where: { !$0.present }) {
      out.line()
      out.line(out.styled("Fetch a model with: fm models pull NAME", .dim))
    }
    return .success
  }

  /// One line of the table.
  private struct Row {
    var name: String
    var size: String
    var present: Bool
    var path: String
    var role: String
  }

  private static func role(of model: ModelDescriptor) -> String {
    switch model.name {
    case ModelCatalog.defaultChatModel.name: "default for chat"
    case ModelCatalog.defaultTestModel.name: "used by tests"
    default: ""
    }
  }

  private static func pad(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
  }
}
