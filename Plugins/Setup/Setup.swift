import Foundation
import PackagePlugin

/// `swift package setup [MODEL...]`, from this package or from any package that depends on it:
/// builds the pinned llama.cpp once per machine (into `~/.cache/foundationmodels-linux`, with a
/// step counter), links this package's checkout to it, and fetches the models named (by default
/// the one `SystemLanguageModel.default` loads). Each step is skipped once done.
@main struct Setup: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    guard let package = Self.foundationModels(in: context.package) else {
      throw SetupError("the FoundationModels package is not among this package's dependencies")
    }
    if arguments.contains(where: { $0 == "-h" || $0 == "--help" }) {
      print(
        """
        swift package setup [MODEL...]: builds the pinned llama.cpp for this machine (once) and
        fetches the models named: catalogue names or hf:OWNER/REPO[:QUANT]; by default the model
        SystemLanguageModel.default loads ($FM_MODEL when set, else qwen2.5-coder-1.5b).
        """)
      return
    }
    print("==> Setting up FoundationModels (llama.cpp and models)")
    try run(
      URL(fileURLWithPath: "/usr/bin/env"), ["bash", package.directoryURL.appending(path: "scripts/build-llama").path])
    try run(try context.tool(named: "setup-models").url, arguments)
    print("==> Set up: swift build and swift run now find llama.cpp and the models.")
  }

  /// The package that holds this plugin: the one with the `FoundationModels` product and the
  /// llama.cpp module, the root package or one of its dependencies, however deep.
  static func foundationModels(in package: Package) -> Package? {
    if package.products.contains(where: { $0.name == "FoundationModels" }),
      package.targets.contains(where: { $0.name == "CLlama" })
    {
      return package
    }
    for dependency in package.dependencies {
      if let found = foundationModels(in: dependency.package) { return found }
    }
    return nil
  }

  /// Runs `executable` with `arguments`, its output going where this plugin's goes.
  func run(_ executable: URL, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw SetupError("\(executable.lastPathComponent) \(arguments.joined(separator: " ")) failed")
    }
  }
}

struct SetupError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
