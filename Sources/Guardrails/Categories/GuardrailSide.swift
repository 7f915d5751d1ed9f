/// Which side of the model a checked text is on.
public enum GuardrailSide: String, Sendable, Codable {
  /// Text the model reads: instructions, prompts, tool outputs.
  case input
  /// Text the model generates.
  case output
}
