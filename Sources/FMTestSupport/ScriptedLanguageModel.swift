@_spi(Engine) import FoundationModels
import InferenceEngine

extension SystemLanguageModel {
  /// A `SystemLanguageModel` over a scripted token model, for tests of the public API without
  /// weights.
  public static func scripted(_ model: ScriptedTokenModel, contextSize: Int? = nil) -> SystemLanguageModel {
    SystemLanguageModel(tokenModel: model, contextSize: contextSize)
  }
}
