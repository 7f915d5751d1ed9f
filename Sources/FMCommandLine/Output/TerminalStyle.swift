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

  private var code: String {
    switch self {
    case .bold: "1"
    case .dim: "2"
    case .red: "31"
    case .green: "32"
    case .yellow: "33"
    }
  }
}
