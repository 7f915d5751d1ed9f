// swift-tools-version: 6.0
// A package that depends on this checkout by path, as a user's app would. Built and run by
// `scripts/check-dependent-package` in a clean environment (no pkg-config or library paths).
import PackageDescription

let package = Package(
  name: "DependentApp",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "FoundationModels", path: "../../..")],
  targets: [
    .executableTarget(
      name: "DependentApp", dependencies: [.product(name: "FoundationModels", package: "FoundationModels")])
  ]
)
