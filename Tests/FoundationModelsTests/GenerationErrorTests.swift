import Foundation
import FoundationModels
import Testing

@Suite struct GenerationErrorTests {
  typealias GenerationError = LanguageModelSession.GenerationError

  static let context = GenerationError.Context(debugDescription: "Content contains 5342 tokens.")
  static let all: [GenerationError] = [
    .exceededContextWindowSize(context), .assetsUnavailable(context), .guardrailViolation(context),
    .unsupportedGuide(context), .unsupportedLanguageOrLocale(context), .decodingFailure(context),
    .rateLimited(context), .concurrentRequests(context),
    .refusal(.init(transcriptEntries: []), context),
  ]

  @Test func everyCaseDescribesItself() {
    var summaries = Set<String>()
    for error in Self.all {
      let description = error.errorDescription ?? ""
      #expect(description.hasSuffix("Content contains 5342 tokens."))
      summaries.insert(description)
      #expect(error.failureReason?.isEmpty == false)
      #expect(error.recoverySuggestion?.isEmpty == false)
      #expect(error.localizedDescription == description)
    }
    #expect(summaries.count == Self.all.count)
  }

  @Test func unsupportedLanguageMatchesApplesWording() {
    let error = GenerationError.unsupportedLanguageOrLocale(.init(debugDescription: ""))
    #expect(error.errorDescription == "An unsupported language or locale was used.")
  }
}
