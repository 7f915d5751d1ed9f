import Foundation
import FoundationModels

/// Errors as the chat prints them: one friendly line, naming the guardrail or the limit hit.
enum ChatErrorText {
  static func describe(_ error: any Error) -> String {
    if let violation = GuardrailViolationText.description(of: error) {
      return "Guardrail violation: \(violation) Nothing was added to the chat; rephrase it, or try "
        + "'/set guardrails permissive' to let replies transform such content."
    }
    switch error {
    case let error as LanguageModelSession.GenerationError:
      switch error {
      case .exceededContextWindowSize(let context):
        return "The context window is full. \(context.debugDescription)"
      case .assetsUnavailable(let context):
        return "The model is unavailable: \(context.debugDescription)"
      case .refusal(_, let context):
        return "The model refused: \(context.debugDescription)"
      default:
        return error.errorDescription ?? "\(error)"
      }
    case SystemLanguageModel.Error.assetsUnavailable(let payload):
      return "The model is unavailable: \(payload.debugDescription)"
    case is CancellationError:
      return "interrupted"
    case let error as any LocalizedError:
      return error.errorDescription ?? "\(error)"
    default:
      return "\(error)"
    }
  }
}
