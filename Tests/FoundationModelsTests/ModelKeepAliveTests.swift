import FMTestSupport
import Foundation
import FoundationModels
import InferenceEngine
import Testing

/// A model outlives its sessions by its keep-alive period, on the real small model. Each test
/// runs on its own link to the model file (a model of its own to the loader) and the suite is
/// serialized, since `releaseUnusedModels()` applies to every idle model of the process.
@Suite(.serialized) struct ModelKeepAliveTests {
  let directory: TemporaryDirectory
  let path: URL
  let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 2)

  init() throws {
    directory = try TemporaryDirectory()
    path = directory.url.appendingPathComponent("model.gguf")
    do {
      try FileManager.default.linkItem(atPath: TestModels.smolLM2Path, toPath: path.path)
    } catch {
      try FileManager.default.copyItem(atPath: TestModels.smolLM2Path, toPath: path.path)
    }
  }

  func model(_ keepAlive: SystemLanguageModel.KeepAlive) -> SystemLanguageModel {
    SystemLanguageModel(path: path, contextSize: 512, keepAlive: keepAlive)
  }

  /// Answers one prompt in a session of its own, which ends when this returns.
  func oneShot(_ model: SystemLanguageModel) async throws -> LanguageModelSession.Response<String> {
    try await LanguageModelSession(model: model).respond(to: "Hi", options: options)
  }

  /// Waits until `condition` holds (a session lets go of its model when its last task ends,
  /// a moment after its reply) or 10 seconds pass.
  func eventually(_ condition: () -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + .seconds(10)
    while !condition(), ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(10))
    }
    return condition()
  }

  var isLoaded: Bool { ModelLoader.isLoaded(at: path.path) }

  @Test func sessionsOneAfterTheOtherLoadTheModelOnce() async throws {
    defer { directory.remove() }
    let model = model(.default)
    _ = try await oneShot(model)
    #expect(ModelLoader.loadCount(at: path.path) == 1)
    #expect(isLoaded, "kept after its session ended")
    let second = try await oneShot(model)
    #expect(ModelLoader.loadCount(at: path.path) == 1)
    #expect(second.usage.output.totalTokenCount > 0)
    SystemLanguageModel.releaseUnusedModels()
  }

  @Test func unloadAtOnceLoadsTheModelForEachSession() async throws {
    defer { directory.remove() }
    let model = model(.unloadAtOnce)
    _ = try await oneShot(model)
    #expect(try await eventually { !isLoaded })
    _ = try await oneShot(model)
    #expect(ModelLoader.loadCount(at: path.path) == 2)
  }

  @Test func aModelIsUnloadedWhenItsKeepAliveEnds() async throws {
    defer { directory.remove() }
    _ = try await oneShot(model(.duration(.milliseconds(100))))
    #expect(try await eventually { !isLoaded })
  }

  @Test func releaseUnusedModelsKeepsModelsInUse() async throws {
    defer { directory.remove() }
    let session = LanguageModelSession(model: model(.forever))
    _ = try await session.respond(to: "Hi", options: options)
    SystemLanguageModel.releaseUnusedModels()
    #expect(isLoaded, "the session still uses it")
    _ = try await session.respond(to: "Hi again", options: options)
    #expect(ModelLoader.loadCount(at: path.path) == 1)
  }

  @Test func releaseUnusedModelsUnloadsAnIdleModel() async throws {
    defer { directory.remove() }
    _ = try await oneShot(model(.forever))
    #expect(isLoaded)
    // Released once the session's last task has let go of the model.
    #expect(
      try await eventually {
        SystemLanguageModel.releaseUnusedModels()
        return !isLoaded
      })
  }

  @Test func prewarmOnAFreshSessionWarmsTheSharedModel() async throws {
    defer { directory.remove() }
    let model = model(.default)
    LanguageModelSession(model: model).prewarm()
    #expect(try await eventually { isLoaded })
    _ = try await oneShot(model)
    #expect(ModelLoader.loadCount(at: path.path) == 1, "the session found the prewarmed model")
    SystemLanguageModel.releaseUnusedModels()
  }
}
