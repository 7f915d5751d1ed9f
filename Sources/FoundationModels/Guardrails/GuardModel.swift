/// A safety model used as the guardrails' judge, in its own prompt format and output
/// convention: Llama Guard 3, Qwen3Guard, ShieldGemma or Granite Guardian.
///
/// Our addition.
///
/// ```swift
/// let guard = SystemLanguageModel(name: "hf:QuantFactory/Llama-Guard-3-1B-GGUF:Q4_K_M")
/// let model = SystemLanguageModel.default.guardrails(.default, judge: GuardModel(guard, format: .llamaGuard3))
/// ```
///
/// The guard model reads the inputs the classifier is unsure of (as any judge does: the
/// model's own answer is blocked on the classifier's confident decisions only) and its
/// "unsafe" decision is honoured: the text is blocked, reported under the guard's category
/// mapped onto ours (Llama Guard's S11 is self-harm, Qwen3Guard's "Violent" is violence and
/// weapons, …), or under the classifier's most likely category where the guard's has no
/// counterpart (elections, privacy, jailbreak). An answer outside the format's convention
/// leaves the text to the classifier. `docs/GUARDRAILS.md` has the pull line of each model.
public struct GuardModel: Sendable {
  /// A guard model's prompt format and output convention.
  public enum Format: String, CaseIterable, Sendable {
    /// Meta's Llama Guard 3 (1B, 8B; Llama Guard 4 answers the same way): the model's chat
    /// template wraps the text in its policy of categories S1–S14; it answers `safe`, or
    /// `unsafe` and a line of categories (`S1,S10`).
    case llamaGuard3
    /// Qwen3Guard-Gen: the chat template wraps the text; it answers `Safety: Safe|Unsafe|
    /// Controversial` and `Categories: …`. Controversial counts as safe (its "loose" reading):
    /// the judge only settles texts the classifier is already unsure of.
    case qwen3Guard
    /// Google's ShieldGemma: the text goes in its documented prompt with one policy (dangerous
    /// content, harassment, hate speech, sexually explicit information) chosen from the
    /// category the classifier found most likely; it answers `Yes` (violates) or `No`.
    case shieldGemma
    /// IBM's Granite Guardian 3.x: the chat template wraps the text with its default risk
    /// ("harm"); it answers `Yes` or `No` (3.3, without thinking: `<score> yes </score>`).
    case graniteGuardian
  }

  /// The guard model.
  public let model: any LanguageModel
  /// How it is asked and how its answer is read.
  public let format: Format

  /// `model`, asked in `format`'s prompt and read by its convention.
  public init(_ model: some LanguageModel, format: Format) {
    self.model = model
    self.format = format
  }
}

extension GuardModel.Format {
  /// The format a model's name or path shows (`llama-guard-3`, `Qwen3Guard`, `shieldgemma`,
  /// `granite-guardian`), case and separators aside; nil for any other model.
  public init?(modelName: String) {
    let name = modelName.lowercased().filter { $0.isLetter || $0.isNumber }
    if name.contains("llamaguard3") || name.contains("llamaguard4") {
      self = .llamaGuard3
    } else if name.contains("qwen3guard") {
      self = .qwen3Guard
    } else if name.contains("shieldgemma") {
      self = .shieldGemma
    } else if name.contains("graniteguardian") {
      self = .graniteGuardian
    } else {
      return nil
    }
  }
}

extension LanguageModel {
  /// This model with the guardrails of your choice, `judge` a guard model in its own format
  /// (see ``GuardModel`` and ``GuardrailedLanguageModel``).
  ///
  /// Our addition.
  public func guardrails(_ guardrails: SystemLanguageModel.Guardrails, judge: GuardModel)
    -> GuardrailedLanguageModel<Self>
  {
    GuardrailedLanguageModel(self, guardrails: guardrails, guardModel: judge)
  }
}
