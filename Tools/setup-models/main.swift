import Foundation
import ModelStore

// The model step of `swift package setup` (Plugins/Setup): fetches the models named on the
// command line into the model cache, with progress on standard error; with none named, the
// model `SystemLanguageModel.default` loads (`$FM_MODEL` when set, else the catalogue's
// default). A name that is a path to a GGUF file needs nothing fetched.
let environment = ProcessInfo.processInfo.environment
let arguments = Array(CommandLine.arguments.dropFirst())
let names = arguments.isEmpty ? [ModelCatalog.defaultChatModelName(environment: environment)] : arguments
let standardError = FileHandle.standardError
func say(_ text: String) { standardError.write(Data(text.utf8)) }

do {
  for name in names {
    if name.hasSuffix(".gguf"), FileManager.default.fileExists(atPath: name) {
      say("  \(name): a model file; nothing to fetch\n")
      continue
    }
    let request = try ModelRequest(parsing: name)
    try await request.pull(into: ModelStore(), isTerminal: isatty(2) == 1) { say($0) }
  }
} catch let error as ModelStoreError {
  say("error: \(error.message)\n")
  exit(1)
} catch {
  say("error: \(error)\n")
  exit(1)
}
