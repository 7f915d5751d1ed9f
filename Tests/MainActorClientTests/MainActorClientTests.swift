import FMTestSupport
import Foundation
import FoundationModels
import Synchronization
import Testing

/// The patterns of the book's apps, from the main actor, on a scripted model (each forward pass
/// takes a few milliseconds on the engine's thread, as a real model's would).
@MainActor @Suite struct MainActorClientTests {
  /// Set while the scripted model is inside a forward pass.
  let passInProgress = SharedFlag()

  func model(passSeconds: Double = 0) -> SystemLanguageModel {
    let flag = passInProgress
    let reply = ScriptedTokenModel.replying(#"{"name":"Rhine"}"#, tokens: ["{\"", "name", "\":\"", "Rhine", "\"}"])
    let timed = ScriptedTokenModel(tokens: ["{\"", "name", "\":\"", "Rhine", "\"}"]) { context in
      flag.set(true)
      defer { flag.set(false) }
      if passSeconds > 0 { Thread.sleep(forTimeInterval: passSeconds) }
      return reply.preferences(after: context)
    }
    return .scripted(timed)
  }

  @Test func everyRespondOverloadWithBuildersReadingMainActorState() async throws {
    let viewModel = ChatViewModel(model: model())
    try await viewModel.askEveryWay()
    #expect(viewModel.answers.count == 9)
    #expect(viewModel.answers.suffix(6).allSatisfy { $0 == "Rhine" }, "guided answers decode")
    #expect(viewModel.session.transcript.count == 1 + 2 * 9)
  }

  @Test func streamingUpdatesViewModelProperties() async throws {
    let viewModel = ChatViewModel(model: model())
    try await viewModel.stream()
    #expect(viewModel.snapshotCount > 1)
    #expect(viewModel.streamed == viewModel.answers.last)
  }

  @Test func tokenCountsFromTheMainActor() async throws {
    let viewModel = ChatViewModel(model: model())
    let before = try await viewModel.tokenCounts()
    try await viewModel.stream()
    let after = try await viewModel.tokenCounts()
    #expect(before.prompt > 0)
    #expect(after.transcript > before.transcript)
  }

  /// While the model computes, the main actor runs other work: a main-actor task sees the
  /// forward pass in progress, which it never could if the pass ran on the main actor.
  @Test func theMainActorStaysResponsiveDuringGeneration() async throws {
    let viewModel = ChatViewModel(model: model(passSeconds: 0.02))
    let watch = PassWatch(flag: passInProgress)
    let watcher = Task { await watch.run() }
    try await viewModel.stream()
    watch.generating = false
    await watcher.value
    #expect(watch.sawPassInProgress)
  }
}

/// A main-actor task that polls whether a forward pass is in progress.
@MainActor final class PassWatch {
  let flag: SharedFlag
  var generating = true
  var sawPassInProgress = false

  init(flag: SharedFlag) {
    self.flag = flag
  }

  func run() async {
    while generating {
      if flag.isSet { sawPassInProgress = true }
      try? await Task.sleep(for: .milliseconds(2))
    }
  }
}

/// A flag one thread sets and another reads.
final class SharedFlag: Sendable {
  private let value = Mutex(false)

  var isSet: Bool { value.withLock { $0 } }

  func set(_ newValue: Bool) {
    value.withLock { $0 = newValue }
  }
}
