import Foundation
import FoundationModels
import Testing

@testable import FMServer

/// Which models `fm serve` keeps in memory, without loading any (a served model's weights load
/// on its first generation, which these tests never start).
@Suite struct ModelRosterTests {
  static func roster(maxLoaded: Int? = nil, keepAlive: SystemLanguageModel.KeepAlive = .forever) -> ModelRoster {
    let entries = ["a", "b", "c"].map {
      ModelRoster.Entry(id: $0, model: SystemLanguageModel(path: URL(fileURLWithPath: "/nonexistent/\($0).gguf")))
    }
    return ModelRoster(entries, slots: 1, queue: 1, maxLoaded: maxLoaded, keepAlive: keepAlive)
  }

  @Test func aModelIsNamedByItsIdOrSystemForTheFirst() async throws {
    let roster = Self.roster()
    #expect(try await roster.withModel("system") { $0.id } == "a")
    #expect(try await roster.withModel("b") { $0.id } == "b")
    do {
      _ = try await roster.withModel("d") { $0.id }
      Issue.record("an unknown model was served")
    } catch let error as APIError {
      #expect(error.status == .notFound && error.message.contains("'a', 'b', 'c'"))
    }
    #expect(Set(roster.loaded.keys) == ["a", "b"])
  }

  @Test func pastTheBoundTheModelIdleLongestIsUnloaded() async throws {
    let roster = Self.roster(maxLoaded: 2)
    _ = try await roster.withModel("a") { $0.id }
    _ = try await roster.withModel("b") { $0.id }
    _ = try await roster.withModel("a") { $0.id }
    _ = try await roster.withModel("c") { $0.id }
    #expect(Set(roster.loaded.keys) == ["a", "c"])
  }

  @Test func whenEveryLoadedModelIsBusyAnotherIsRefused() async throws {
    let roster = Self.roster(maxLoaded: 1)
    let refusal = try await roster.withModel("a") { _ in
      do {
        _ = try await roster.withModel("b") { $0.id }
        return nil as APIError?
      } catch let error as APIError {
        return error
      }
    }
    #expect(refusal?.status == .serviceUnavailable && refusal?.headers.first?.name == "Retry-After")
    // Once the first is idle, the other loads in its place.
    #expect(try await roster.withModel("b") { $0.id } == "b")
    #expect(Set(roster.loaded.keys) == ["b"])
  }

  @Test func anIdleModelIsUnloadedAfterItsKeepAlive() async throws {
    let roster = Self.roster(keepAlive: .duration(.milliseconds(100)))
    _ = try await roster.withModel("a") { $0.id }
    let kept = try await roster.withModel("b") { _ in
      let deadline = ContinuousClock.now + .seconds(30)
      while roster.loaded.count > 1, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
      return roster.loaded.keys.sorted()
    }
    // While b ran, a's period ended; b's starts when its request ends.
    #expect(kept == ["b"])
    let deadline = ContinuousClock.now + .seconds(30)
    while !roster.loaded.isEmpty, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
    #expect(roster.loaded.isEmpty)
    let atOnce = Self.roster(keepAlive: .unloadAtOnce)
    _ = try await atOnce.withModel("c") { $0.id }
    #expect(atOnce.loaded.isEmpty)
  }
}
