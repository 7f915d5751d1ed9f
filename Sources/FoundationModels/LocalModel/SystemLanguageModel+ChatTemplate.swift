import InferenceEngine
import Synchronization

extension SystemLanguageModel {
  /// The chat template sessions on this model render with: the one given at creation, parsed
  /// once for the model's vocabulary, else the one in the model's file.
  /// - Throws: `SystemLanguageModel.Error.assetsUnavailable` when the given template does not
  ///   parse, or when the model has none (a base model), naming how to give one.
  func chatTemplate(for tokenModel: any TokenModel) throws -> ChatTemplate {
    guard let chatTemplateSource else {
      guard let template = tokenModel.chatTemplate else {
        throw SystemLanguageModel.Error.assetsUnavailable(
          .init(
            debugDescription:
              "\(source.displayName) has no chat template (a base model): give one with --chat-template-file FILE "
              + "(fm, fm serve) or SystemLanguageModel(name:chatTemplate:)"))
      }
      return template
    }
    return try parsedTemplate.template(for: tokenModel) {
      do {
        return try tokenModel.makeChatTemplate(source: chatTemplateSource)
      } catch let error as EngineError {
        throw SystemLanguageModel.Error.assetsUnavailable(.init(debugDescription: error.message))
      }
    }
  }
}

/// A given chat template, parsed for the token model it was first used with.
final class ParsedTemplateHolder: Sendable {
  private let parsed = Mutex<(model: ObjectIdentifier, template: ChatTemplate)?>(nil)

  func template(for model: any TokenModel, parse: () throws -> ChatTemplate) throws -> ChatTemplate {
    let identity = ObjectIdentifier(model)
    if let kept = parsed.withLock({ $0 }), kept.model == identity { return kept.template }
    let template = try parse()
    parsed.withLock { $0 = (identity, template) }
    return template
  }
}
