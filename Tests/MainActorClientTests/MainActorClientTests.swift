import FMTestSupport
import Foundation
import FoundationModels
import Synchronization
import Testing

/// The patterns of the book's apps, from the main actor, on a scripted model.
@MainActor @Suite struct MainActorClientTests {
  let reply = #"{"name":"Rhine"}"#
  let vocabulary = ["{\"", "name", "\":\"", "Rhine", "\"}"]

  var model: SystemLanguageModel {
    .scripted(.replying(reply, tokens: vocabulary))
  }

  @Test func everyRespondOverloadWithBuildersReadingMainActorState() async throws {
    let viewModel = ChatViewModel(model: model)
    try await viewModel.askEveryWay()
    #expect(viewModel.answers.count == 9)
    #expect(viewModel.answers.suffix(6).allSatisfy { $0 == "Rhine" }, "guided answers decode")
    #expect(viewModel.session.transcript.count == 1 + 2 * 9)
  }

  @Test func streamingUpdatesViewModelProperties() async throws {
    let viewModel = ChatViewModel(model: model)
    try await viewModel.stream()
    #expect(viewModel.snapshotCount > 1)
    #expect(viewModel.streamed == viewModel.answers.last)
  }

  @Test func tokenCountsFromTheMainActor() async throws {
    let viewModel = ChatViewModel(model: model)
    let before = try await viewModel.tokenCounts()
    try await viewModel.stream()
    let after = try await viewModel.tokenCounts()
    #expect(before.prompt > 0)
    #expect(after.transcript > before.transcript)
  }

  /// While the model computes, the main actor runs other work. The first forward pass waits
  /// (up to 10 s) until a main-actor task has seen it in progress, which that task never
  /// could if the pass ran on the main actor.
  @Test func theMainActorStaysResponsiveDuringGeneration() async throws {
    let rendezvous = PassRendezvous()
    let replying = ScriptedTokenModel.replying(reply, tokens: vocabulary)
    let waiting = ScriptedTokenModel(tokens: vocabulary) { context in
      rendezvous.pass { replying.preferences(after: context) }
    }
    let viewModel = ChatViewModel(model: .scripted(waiting))
    let watch = PassWatch(rendezvous: rendezvous)
    let watcher = Task { await watch.run() }
    try await viewModel.stream()
    watch.generating = false
    await watcher.value
    #expect(rendezvous.wasWitnessed)
    #expect(viewModel.answers.last == reply)
  }
}

/// Lets the first forward pass wait until another thread has seen it running.
final class PassRendezvous: Sendable {
  private let inPass = Mutex(false)
  private let witnessed = DispatchSemaphore(value: 0)
  private let seen = Mutex(false)
  private let passes = Mutex(0)

  var isInPass: Bool { inPass.withLock { $0 } }
  var wasWitnessed: Bool { seen.withLock { $0 } }

  /// Runs one forward pass; the first waits for a witness.
  func pass<Result>(_ body: () -> Result) -> Result {
    inPass.withLock { $0 = true }
    defer { inPass.withLock { $0 = false } }
    let isFirst = passes.withLock { count in
      defer { count += 1 }
      return count == 0
    }
    if isFirst { _ = witnessed.wait(timeout: .now() + 10) }
    return body()
  }

  /// Records that a pass was seen in progress, releasing it.
  func witness() {
    let first = seen.withLock { seen in
      defer { seen = true }
      return !seen
    }
    if first { witnessed.signal() }
  }
}

/// A main-actor task that polls whether a forward pass is in progress.
@MainActor final class PassWatch {
  let rendezvous: PassRendezvous
  var generating = true

  init(rendezvous: PassRendezvous) {
    self.rendezvous = rendezvous
  }

  func run() async {
    while generating {
      if rendezvous.isInPass { rendezvous.witness() }
      try? await Task.sleep(for: .milliseconds(2))
    }
  }
}
