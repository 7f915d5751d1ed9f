import Foundation
import FoundationModels

/// Answers one prompt with the model named on the command line (default `smollm2-135m`) and a
/// small `@Generable` type, so the build needs the macros and the run needs llama.cpp.
@Generable
struct Greeting {
  @Guide(description: "A short greeting")
  var text: String
}

let name = CommandLine.arguments.dropFirst().first ?? "smollm2-135m"
let model = SystemLanguageModel(name: name)
guard model.isAvailable else {
  print("model \(name) is not in the model cache; run scripts/setup \(name)")
  exit(1)
}
let session = LanguageModelSession(model: model)
let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 40)
let reply = try await session.respond(to: "Say hello.", generating: Greeting.self, options: options)
print("greeting: \(reply.content.text)")
