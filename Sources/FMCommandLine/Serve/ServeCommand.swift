import Dispatch
import FMServer
import Foundation
import FoundationModels
import ModelStore

/// `fm serve [MODEL]`: an OpenAI-compatible HTTP server on the local model.
enum ServeCommand: Subcommand {
  static let name = "serve"
  static let abstract = "Serve the model over HTTP with OpenAI's chat-completions API."
  static let synopsis = "[MODEL]"
  static let discussion = """
    Listens on http://127.0.0.1:8080 (--host, --port; --port 0 picks a free port), or on a
    Unix-domain socket with --socket PATH, and prints where. Endpoints: GET /health, GET /v1/models, POST /v1/chat/completions (streaming and
    not; response_format json_object and json_schema by constrained decoding; tools with
    tool_choice auto, none, required or a named function — the calls are returned, never run),
    OpenAI's Responses API (POST /v1/responses, GET and DELETE /v1/responses/ID, GET
    /v1/responses/ID/input_items; stored responses continue with previous_response_id on the
    slot that holds their cache, kept up to --store-max and --store-max-mb, oldest dropped
    first, and across restarts with --store-dir), OpenAI's legacy POST /v1/completions (the
    prompt as it is, no chat template; echo, stop, logprobs 0-5 with top_logprobs, streamed
    or not),
    POST /tokenize, /detokenize, /apply-template, GET /metrics (Prometheus). A parameter the
    server cannot honour is a 400 that names it. MODEL is a name from 'fm models' or
    hf:OWNER/REPO[:QUANT] (fetched when missing) or a GGUF path; clients name it by that name
    (a path's file name without .gguf), or 'system', as with Apple's fm serve. /health lists
    the models with whether each is available and why not.
    --parallel requests generate at once and up to --queue more wait; past that, 503 with
    Retry-After. With --api-key (or FM_API_KEY) every endpoint but /health needs
    'Authorization: Bearer KEY'. Ctrl+C or SIGTERM stops accepting, lets requests in flight
    finish (up to 10 seconds) and exits 0.
    """
  static let options: [CommandLineOption] = [
    .option("--host", value: "ADDRESS", help: "address to listen on (default 127.0.0.1)"),
    .option("--port", "-p", value: "N", help: "port to listen on (default 8080; 0 picks a free one)"),
    .option("--socket", value: "PATH", help: "listen on a Unix-domain socket at PATH instead of --host/--port"),
    .option("--api-key", value: "KEY", help: "require 'Authorization: Bearer KEY' (or FM_API_KEY)"),
    .option("--parallel", value: "N", help: "chat completions generating at once (default 1)"),
    .option("--queue", value: "N", help: "chat completions waiting for a slot before 503 (default 16)"),
    .option("--context", value: "N", help: "tokens per request, prompt and answer (default 4096)"),
    ModelOptions.chatTemplateOption,
    .option("--cors", value: "ORIGIN", help: "allow browser calls from ORIGIN ('*' for any); off by default"),
    .option("--store-dir", value: "DIR", help: "keep /v1/responses' stored responses in DIR across restarts"),
    .option("--store-max", value: "N", help: "stored responses kept, oldest dropped first (default 1000)"),
    .option("--store-max-mb", value: "N", help: "megabytes of stored responses kept (default 256)"),
  ]

  /// Seconds requests in flight may take to finish after SIGINT or SIGTERM.
  static let gracePeriod = 10.0

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    guard arguments.positionals.count <= 1 else {
      throw UsageError("'fm serve' takes one MODEL, not \(arguments.positionals.count)")
    }
    if arguments.value("--socket") != nil, arguments.value("--host") != nil || arguments.value("--port") != nil {
      throw UsageError("--socket listens instead of --host and --port: give one or the other")
    }
    let name = arguments.positionals.first ?? ModelCatalog.defaultChatModelName(environment: context.environment)
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
    let apiKey = arguments.value("--api-key") ?? context.environment["FM_API_KEY"].flatMap { $0.isEmpty ? nil : $0 }
    let configuration = ServerConfiguration(apiKey: apiKey, corsOrigin: arguments.value("--cors"))
    let store = try responseStore(arguments, context: context)

    // One llama.cpp context with a sequence per request that may generate at once: their
    // tokens are decoded together (continuous batching), and a returning conversation finds
    // its prefix in the slot that served it. Its slot pool also holds the queue.
    let model = SystemLanguageModel(
      name: name, contextSize: contextSize, chatTemplate: try ModelOptions.chatTemplate(arguments))
    try await ChatCommand.fetchIfMissing(model, named: name, context: context)
    let served = ServedModel(id: servedID(name), model: model, slots: parallel, queue: queue ?? 16)
    try await ProgressSpinner.during("loading \(name)…", output: context.standardError) { try await served.load() }
    let server: HTTPServer
    do {
      let responder = OpenAIServer(model: served, configuration: configuration, responseStore: store)
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
    context.standardOutput.line("fm serve: \(served.id) on \(address)")
    await stop.wait()
    context.standardError.line("fm serve: shutting down")
    let finished = await server.shutDown(gracePeriod: gracePeriod)
    if !finished {
      context.standardError.line("fm serve: requests still running after \(Int(gracePeriod)) s were dropped")
    }
    return .success
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
