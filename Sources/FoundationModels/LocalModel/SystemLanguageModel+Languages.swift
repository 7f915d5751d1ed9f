import Foundation

extension SystemLanguageModel {
  /// Matches FoundationModels `SystemLanguageModel.supportedLanguages`: the languages the
  /// model was trained to follow, per its model card.
  ///
  /// SmolLM2 is English-only; Qwen2.5 lists 29 languages. A model given by path whose family is
  /// unknown reports English only.
  public var supportedLanguages: Set<Locale.Language> {
    Set(languageCodes.map { Locale.Language(identifier: $0) })
  }

  /// Matches FoundationModels `SystemLanguageModel.supportsLocale(_:)`: whether the locale's
  /// language (ignoring region and script, the fallback Apple applies) is supported.
  public func supportsLocale(_ locale: Locale = Locale.current) -> Bool {
    guard let code = locale.language.languageCode?.identifier else { return false }
    return languageCodes.contains(code)
  }

  private var languageCodes: [String] {
    let name = source.displayName.lowercased()
    if name.contains("qwen") { return Self.qwenLanguages }
    return ["en"]
  }

  /// Qwen2.5's model card: Chinese, English, French, Spanish, Portuguese, German, Italian,
  /// Russian, Japanese, Korean, Vietnamese, Thai, Arabic and more (29 in all).
  private static let qwenLanguages = [
    "zh", "en", "fr", "es", "pt", "de", "it", "ru", "ja", "ko", "vi", "th", "ar", "nl", "pl", "tr", "cs", "sv",
    "id", "ms", "he", "hi", "bn", "ur", "fa", "uk", "el", "ro", "hu",
  ]
}
