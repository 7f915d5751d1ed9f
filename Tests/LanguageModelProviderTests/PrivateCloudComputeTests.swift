import Foundation
import FoundationModels
import Testing

/// Apple's server model, which a Linux machine can never reach: code written for it compiles,
/// reports it unavailable, and fails cleanly when it is used anyway.
@Suite struct PrivateCloudComputeTests {
  @Test func theModelIsUnavailableBecauseTheDeviceIsNotEligible() async throws {
    let model = PrivateCloudComputeLanguageModel()
    #expect(model.availability == .unavailable(.deviceNotEligible))
    #expect(!model.isAvailable)
    switch model.availability {
    case .available:
      Issue.record("Private Cloud Compute cannot be available on Linux")
    case .unavailable(let reason):
      #expect(reason != .systemNotReady)
    }
    #expect(model.supportedLanguages.isEmpty)
    #expect(!model.supportsLocale())
    #expect(!model.supportsLocale(Locale(identifier: "en_US")))
    for capability in [LanguageModelCapabilities.Capability.guidedGeneration, .toolCalling, .reasoning, .vision] {
      #expect(!model.capabilities.contains(capability))
    }
    await #expect {
      _ = try await model.contextSize
    } throws: { error in
      guard case PrivateCloudComputeLanguageModel.Error.serviceUnavailable(let payload) = error else { return false }
      return payload.debugDescription.contains("Apple-only")
    }
  }

  @Test func aSessionOnItFailsWithServiceUnavailableAndKeepsItsTranscript() async throws {
    let session = LanguageModelSession(model: PrivateCloudComputeLanguageModel(), instructions: "Be brief.")
    let before = session.transcript
    await #expect {
      try await session.respond(to: "Hello")
    } throws: { error in
      guard case PrivateCloudComputeLanguageModel.Error.serviceUnavailable(let payload) = error else { return false }
      return payload.debugDescription.contains("cannot be reached from Linux")
        && (error as? LocalizedError)?.errorDescription?.hasPrefix("Private Cloud Compute is unavailable") == true
    }
    #expect(session.transcript == before)
    #expect(!session.isResponding)
    var snapshots = 0
    await #expect(throws: PrivateCloudComputeLanguageModel.Error.self) {
      for try await _ in session.streamResponse(to: "Hello again") { snapshots += 1 }
    }
    #expect(snapshots == 0)
    #expect(session.transcript == before)
  }

  @Test func theExecutorHasTheShapeOfTheSystemModels() async throws {
    let model = PrivateCloudComputeLanguageModel()
    #expect(model.executorConfiguration == PrivateCloudComputeLanguageModel().executorConfiguration)
    let executor = PrivateCloudComputeLanguageModel.Executor(configuration: model.executorConfiguration)
    executor.prewarm(model: model, transcript: Transcript())
    let request = LanguageModelExecutorGenerationRequest(
      id: UUID(), transcript: Transcript(), enabledTools: [], generationOptions: GenerationOptions(),
      contextOptions: ContextOptions(), metadata: [:])
    await #expect(throws: PrivateCloudComputeLanguageModel.Error.self) {
      try await executor.respond(to: request, model: model, streamingInto: LanguageModelExecutorGenerationChannel())
    }
  }

  @Test func quotaUsageIsBelowTheLimitWithNothingToReset() {
    let usage = PrivateCloudComputeLanguageModel().quotaUsage
    #expect(!usage.isLimitReached)
    #expect(usage.resetDate == nil)
    #expect(usage.limitIncreaseSuggestion == nil)
    switch usage.status {
    case .belowLimit(let below):
      #expect(!below.isApproachingLimit)
    case .limitReached:
      Issue.record("nothing is used on Linux")
    @unknown default:
      Issue.record("no other status exists")
    }
  }

  @Test func errorsAreBuiltWithApplesInitializers() {
    let reset = Date(timeIntervalSince1970: 1_800_000_000)
    let limit = PrivateCloudComputeLanguageModel.Error.QuotaLimitReached(resetDate: reset, debugDescription: "used up")
    #expect(limit.resetDate == reset)
    #expect(limit.limitIncreaseSuggestion == nil)
    let errors: [PrivateCloudComputeLanguageModel.Error] = [
      .networkFailure(.init(debugDescription: "offline")),
      .quotaLimitReached(limit),
      .quotaLimitReached(.init(debugDescription: "no date")),
      .serviceUnavailable(.init(debugDescription: "down")),
    ]
    #expect(errors.map(\.debugDescription) == ["offline", "used up", "no date", "down"])
    #expect(errors.allSatisfy { $0.errorDescription?.contains($0.debugDescription) == true })
  }
}
