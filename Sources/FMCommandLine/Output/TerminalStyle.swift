/// The few ANSI text styles `fm` uses; `TextOutput.styled` applies them only when colour is on.
enum TerminalStyle: Sendable {
  case bold
  case dim
  case red
  case green
  case yellow

  /// `text` between this style's SGR code and a reset.
  func apply(to text: String) -> String {
    "\u{1B}[\(code)m\(text)\u{1B}[0m"
  }

  /// The SGR code for the terminal's appearance: on a light background, darker green and an
  /// orange for yellow, which is hard to read on white.
  var code: String {
    let light = TerminalAppearance.current == .light
    return switch self {
    case .bold: "1"
    case .dim: "2"
    case .red: "31"
    case .green: light ? "38;5;28" : "32"
    case .yellow: light ? "38;5;130" : "33"
    }
  }
}
