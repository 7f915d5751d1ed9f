import Dispatch
import FMServer
import Foundation
import FoundationModels
import ModelStore

/// `fm serve [MODEL]`: an OpenAI-compatible HTTP server on the local model.
enum ServeCommand: Subcommand {
  static let name = "serve"
  static let abstract = "Serve models over HTTP with OpenAI's and Anthropic's APIs."
  static let synopsis = "[MODEL...]"
  static let discussion = """
    Listens on http://127.0.0.1:8080 (--host, --port; --port 0 picks a free port), or on a
    Unix-domain socket with --socket PATH, and prints where. Endpoints: GET /health,
    GET /v1/models, POST /v1/chat/completions; OpenAI's Responses API (POST /v1/responses,
    GET and DELETE /v1/responses/ID, GET /v1/responses/ID/input_items: stored responses
    continue with previous_response_id on the slot that holds their cache, up to --store-max
    and --store-max-mb, oldest dropped first, across restarts with --store-dir); Anthropic's
    POST /v1/messages and /v1/messages/count_tokens; OpenAI's legacy POST /v1/completions
    (the prompt as it is, no chat template; echo, stop, logprobs 0-5); POST /tokenize, /detokenize,
    /apply-template; GET /metrics (Prometheus). Streaming or not; JSON schemas and tool calls
    are constrained decoding (the calls are returned, never run). A parameter the server
    cannot honour is a 400 that names it.
    MODEL is a name from 'fm models' or hf:OWNER/REPO[:QUANT] (fetched when missing) or a GGUF
    path; several may be given, and --models-dir serves every .gguf in a directory. Clients
    name a model by that name (a path's file name without .gguf), or the first as 'system',
    as with Apple's fm serve. The first loads at the start, the others on their first request;
    an idle model unloads after --keep-alive, and at most --max-loaded stay in memory.
    /health lists the models with whether each is available and loaded.
    --parallel requests generate at once on each model and up to --queue more wait; past that,
    503 with Retry-After. With --api-key (or FM_API_KEY) every endpoint but /health needs
    'Authorization: Bearer KEY' or 'x-api-key: KEY'. Ctrl+C or SIGTERM stops accepting, lets
    requests in flight finish (up to 10 seconds) and exits 0.
    --guardrails default|permissive checks requests as the library checks a session's turns
    (off by default): a blocked input is a 400 with code content_filter; a blocked answer ends
    there with finish_reason content_filter (Responses: incomplete, content_filter; Messages:
    stop_reason refusal). Permissive checks only requests answered under a JSON schema.
    """
  static let options: [CommandLineOption] = [
    .option("--host", value: "ADDRESS", help: "address to listen on (default 127.0.0.1)"),
    .option("--port", "-p", value: "N", help: "port to listen on (default 8080; 0 picks a free one)"),
    .option("--socket", value: "PATH", help: "listen on a Unix-domain socket at PATH instead of --host/--port"),
    .option("--api-key", value: "KEY", help: "require 'Authorization: Bearer KEY' (or FM_API_KEY)"),
    .option("--parallel", value: "N", help: "requests generating at once on each model (default 1)"),
    .option("--queue", value: "N", help: "requests waiting for a slot before 503 (default 16)"),
    .option("--context", value: "N", help: "tokens per request, prompt and answer (default 4096)"),
    .option(
      "--cache-ram", value: "MIB",
      help: "host memory per model keeping the caches of slots lent to other conversations (default 2048; 0: none)"),
    ModelOptions.chatTemplateOption,
    ModelOptions.speculateOption,
    ModelOptions.draftModelOption,
    .option(
      "--guardrails", value: "MODE",
      help: "check requests and answers as the library does: default | permissive (off by default)"),
    .option("--cors", value: "ORIGIN", help: "allow browser calls from ORIGIN ('*' for any); off by default"),
    .option("--models-dir", value: "DIR", help: "also serve every .gguf file in DIR (named by file name)"),
    .option("--max-loaded", value: "N", help: "models in memory at once; another unloads the one idle longest"),
    .option(
      "--keep-alive", value: "TIME",
      help:
        "how long an idle model stays loaded: 300, 30s, 5m, 1h, 0 or forever (default: forever with one model, else FM_KEEP_ALIVE or 5m)"
    ),
    .option("--store-dir", value: "DIR", help: "keep /v1/responses' stored responses in DIR across restarts"),
    .option("--store-max", value: "N", help: "stored responses kept, oldest dropped first (default 1000)"),
    .option("--store-max-mb", value: "N", help: "megabytes of stored responses kept (default 256)"),
  ]

  /// Seconds requests in flight may take to finish after SIGINT or SIGTERM.
  static let gracePeriod = 10.0

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    if arguments.value("--socket") != nil, arguments.value("--host") != nil || arguments.value("--port") != nil {
      throw UsageError("--socket listens instead of --host and --port: give one or the other")
    }
    let port = try arguments.value("--port").map { value -> Int in
      guard let port = Int(value), (0...65535).contains(port) else {
        throw UsageError("--port needs a number from 0 to 65535, not '\(value)'")
      }
      return port
    }
    let contextSize = try arguments.value("--context").map { try ModelOptions.positiveInt($0, "--context") }
    let parallel = try arguments.value("--parallel").map { try ModelOptions.positiveInt($0, "--parallel") } ?? 1
    let queue = try arguments.value("--queue").map { value -> Int in
      guard let queue = Int(value), queue >= 0 else {
        throw UsageError("--queue needs a non-negative integer, not '\(value)'")
      }
      return queue
    }
    let cacheRAM = try arguments.value("--cache-ram").map { value -> Int in
      guard let megabytes = Int(value), megabytes >= 0 else {
        throw UsageError("--cache-ram needs a non-negative number of MiB, not '\(value)'")
      }
      return megabytes << 20
    }
    let apiKey = arguments.value("--api-key") ?? context.environment["FM_API_KEY"].flatMap { $0.isEmpty ? nil : $0 }
    let configuration = ServerConfiguration(apiKey: apiKey, corsOrigin: arguments.value("--cors"))
    let store = try responseStore(arguments, context: context)

    // For each model, one llama.cpp context with a sequence per request that may generate at
    // once: their tokens are decoded together (continuous batching), and a returning
    // conversation finds its prefix in the slot that served it. Its slot pool also holds the queue.
    // Options first: a mistyped one is refused before any model is fetched.
    let maxLoaded = try arguments.value("--max-loaded").map { try ModelOptions.positiveInt($0, "--max-loaded") }
    let keepAlive = try keepAlive(arguments)
    let entries = try await modelEntries(arguments, contextSize: contextSize, context: context)
    let roster = ModelRoster(
      entries, slots: parallel, queue: queue ?? 16, maxLoaded: maxLoaded,
      keepAlive: keepAlive ?? (entries.count == 1 ? .forever : .default),
      savedCacheBytes: cacheRAM)
    let first = entries[0].id
    try await ProgressSpinner.during("loading \(first)…", output: context.standardError) {
      try await roster.loadDefault()
    }
    try await ChatCommand.measureSpeculationCosts(of: entries[0].model, context: context)
    let server: HTTPServer
    do {
      let responder = OpenAIServer(models: roster, configuration: configuration, responseStore: store)
      if let socket = arguments.value("--socket") {
        server = try HTTPServer(socketPath: socket, responder: responder)
      } else {
        server = try HTTPServer(
          host: arguments.value("--host") ?? "127.0.0.1", port: port ?? 8080, responder: responder)
      }
    } catch let error as ServerStartError {
      throw UsageError(error.description)
    }
    let stop = StopSignals()
    server.start()
    let address = server.socketPath.map { "unix:\($0)" } ?? "http://\(server.host):\(server.port)"
    context.standardOutput.line("fm serve: \(entries.map(\.id).joined(separator: ", ")) on \(address)")
    await stop.wait()
    context.standardError.line("fm serve: shutting down")
    let finished = await server.shutDown(gracePeriod: gracePeriod)
    if !finished {
      context.standardError.line("fm serve: requests still running after \(Int(gracePeriod)) s were dropped")
    }
    return .success
  }

  /// The models to serve: each MODEL (fetched when missing), then every `.gguf` file in
  /// `--models-dir`; the default model when neither is given. Their weights are freed as soon as
  /// the roster drops them: it keeps them for the keep-alive period itself.
  static func modelEntries(_ arguments: ParsedArguments, contextSize: Int?, context: CommandContext) async throws
    -> [ModelRoster.Entry]
  {
    let template = try ModelOptions.chatTemplate(arguments)
    let guardrails =
      arguments.value("--guardrails") == nil ? nil : try AppleRespondOptions.guardrails(arguments)
    let speculation = try ModelOptions.speculation(arguments)
    var entries: [ModelRoster.Entry] = []
    var names = arguments.positionals
    if names.isEmpty, arguments.value("--models-dir") == nil {
      names = [ModelCatalog.defaultChatModelName(environment: context.environment)]
    }
    for name in names {
      let model = SystemLanguageModel(
        name: name, contextSize: contextSize, keepAlive: .unloadAtOnce, chatTemplate: template,
        speculation: speculation.mode, draftModel: speculation.draftModel)
      try await ChatCommand.fetchIfMissing(model, named: name, context: context)
      entries.append(ModelRoster.Entry(id: servedID(name), model: model, guardrails: guardrails))
    }
    if let directory = arguments.value("--models-dir") {
      let files: [String]
      do {
        files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".gguf") }.sorted()
      } catch {
        throw UsageError("--models-dir \(directory) cannot be read: \(error.localizedDescription)")
      }
      guard !files.isEmpty else { throw UsageError("--models-dir \(directory) holds no .gguf file") }
      for file in files {
        let path = URL(fileURLWithPath: directory).appendingPathComponent(file)
        let model = SystemLanguageModel(
          path: path, contextSize: contextSize, keepAlive: .unloadAtOnce, chatTemplate: template,
          speculation: speculation.mode, draftModel: speculation.draftModel)
        entries.append(ModelRoster.Entry(id: servedID(path.path), model: model, guardrails: guardrails))
      }
    }
    var seen = Set<String>()
    for entry in entries where !seen.insert(entry.id).inserted {
      throw UsageError("two models are named '\(entry.id)': serve each name once")
    }
    if entries.count > 1, template != nil {
      throw UsageError("--chat-template-file is one model's template: serve that model alone")
    }
    if entries.count > 1, speculation.draftModel != nil {
      throw UsageError("--draft-model guesses for one model: serve that model alone")
    }
    return entries
  }

  /// `--keep-alive`, if given (else forever for one model, loaded at the start as before, and
  /// `FM_KEEP_ALIVE` or five minutes for several).
  static func keepAlive(_ arguments: ParsedArguments) throws -> SystemLanguageModel.KeepAlive? {
    guard let text = arguments.value("--keep-alive") else { return nil }
    guard let keepAlive = SystemLanguageModel.KeepAlive(parsing: text) else {
      throw UsageError("--keep-alive needs a duration (300, 30s, 5m, 1h), 0 or forever, not '\(text)'")
    }
    return keepAlive
  }

  /// Where `/v1/responses` keeps responses: in memory, or also in `--store-dir`, whose
  /// unreadable files are reported and skipped.
  static func responseStore(_ arguments: ParsedArguments, context: CommandContext) throws -> ResponseStore {
    var limits = ResponseStore.Limits()
    if let count = arguments.value("--store-max") { limits.count = try ModelOptions.positiveInt(count, "--store-max") }
    if let megabytes = arguments.value("--store-max-mb") {
      limits.bytes = try ModelOptions.positiveInt(megabytes, "--store-max-mb") << 20
    }
    guard let directory = arguments.value("--store-dir") else { return ResponseStore(limits: limits) }
    let store: ResponseStore
    do {
      store = try ResponseStore(directory: URL(fileURLWithPath: directory), limits: limits)
    } catch {
      throw UsageError("--store-dir \(directory) cannot be used: \(error.localizedDescription)")
    }
    for problem in store.problems { context.standardError.line("fm serve: \(problem)") }
    return store
  }

  /// The id clients name the model by: a catalogue name or an `hf:` reference as it is, a path
  /// as its file name without `.gguf`.
  static func servedID(_ name: String) -> String {
    guard name.contains("/"), !name.hasPrefix(HubReference.prefix) else { return name }
    let file = URL(fileURLWithPath: name).lastPathComponent
    return file.hasSuffix(".gguf") ? String(file.dropLast(5)) : file
  }
}

/// Waits for SIGINT or SIGTERM, which then no longer end the process by themselves.
private final class StopSignals: @unchecked Sendable {  // DispatchSource is thread-safe.
  private let sources: [any DispatchSourceSignal]
  private let stream: AsyncStream<Void>

  init() {
    let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
    self.stream = stream
    sources = [SIGINT, SIGTERM].map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { continuation.yield() }
      source.resume()
      return source
    }
  }

  func wait() async {
    for await _ in stream { break }
    sources.forEach { $0.cancel() }
  }
}
