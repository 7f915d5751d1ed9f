// swift-tools-version: 6.0
import Foundation
import PackageDescription

/// The set-up (`scripts/build-llama`) links the pinned llama.cpp build to `.deps/llama`.
/// Its shared libraries are found at run time through this rpath, so `swift run fm` and
/// `swift test` work without `LD_LIBRARY_PATH`.
let projectRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path
let llamaLibDir = "\(projectRoot)/.deps/llama/lib"
let llamaRPath: [LinkerSetting] = [.unsafeFlags(["-Xlinker", "-rpath", "-Xlinker", llamaLibDir])]

let package = Package(
  name: "FoundationModels",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "FoundationModels", targets: ["FoundationModels"]),
    .executable(name: "fm", targets: ["fm"]),
  ],
  targets: [
    .systemLibrary(name: "CLlama", pkgConfig: "llama"),
    .target(name: "InferenceEngine", dependencies: ["CLlama"], linkerSettings: llamaRPath),
    .target(name: "GuidedDecoding"),
    .executableTarget(name: "maskbench", dependencies: ["GuidedDecoding"]),
    .target(name: "FoundationModels", dependencies: ["InferenceEngine", "GuidedDecoding"]),
    .target(name: "FMCommandLine", dependencies: ["FoundationModels", "InferenceEngine"]),
    .executableTarget(name: "fm", dependencies: ["FMCommandLine"], linkerSettings: llamaRPath),
    .executableTarget(
      name: "fm-bench", dependencies: ["FoundationModels", "InferenceEngine", "GuidedDecoding"],
      linkerSettings: llamaRPath),
    .target(name: "FMTestSupport", dependencies: ["InferenceEngine", "FoundationModels"]),
    .testTarget(
      name: "InferenceEngineTests", dependencies: ["InferenceEngine", "FMTestSupport"],
      linkerSettings: llamaRPath),
    .testTarget(name: "GuidedDecodingTests", dependencies: ["GuidedDecoding"]),
    .testTarget(
      name: "FoundationModelsTests", dependencies: ["FoundationModels", "FMTestSupport"],
      linkerSettings: llamaRPath),
    .testTarget(
      name: "FMCommandLineTests", dependencies: ["FMCommandLine", "FMTestSupport"],
      linkerSettings: llamaRPath),
  ]
)
