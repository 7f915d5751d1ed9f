import Foundation

/// A command typed at the chat prompt: a line that starts with `/` (ollama's spelling).
///
/// A line that starts with `/` is never sent to the model, even when the command is unknown:
/// a typo such as `/sve notes.json` must not leak into the conversation. To send text that
/// starts with a slash, start it with a space.
enum SlashCommand: Equatable, Sendable {
  case help
  case bye
  case set(SettingChange)
  case show(ShowTopic)
  case clear
  case regenerate
  case read(path: String, prompt: String?)
  /// `/save NAME|FILE`, or `/save` alone: the chat's session (a new name where it has none).
  case save(path: String?)
  /// `/load NAME|FILE`: a saved session by name, or a file.
  case load(path: String)
  case summarize
  /// `/history`: the saved sessions.
  case history
  /// `/appearance dark|light|auto`: colours for the terminal's background.
  case appearance(TerminalAppearance)

  /// A change made by `/set`.
  enum SettingChange: Equatable, Sendable {
    case instructions(String?)
    /// `/model NAME` (also `/set model NAME`).
    case model(String)
    case temperature(Double?)
    case sampling(SamplingSetting)
    case maximumResponseTokens(Int?)
    case contextSize(Int?)
    case guardrails(permissive: Bool)
    case verbose(Bool)
    case summarizeAt(Int?)
    /// `/set think on|off|default`.
    case think(Bool?)
  }

  /// What `/show` shows.
  enum ShowTopic: String, CaseIterable, Sendable {
    case info, parameters, instructions, tools, tokens, transcript
  }

  /// The command on `line`, or nil when the line is not a command (it does not start with `/`).
  ///
  /// - Throws: `UsageError` with a one-line hint for an unknown command or bad arguments.
  static func parse(_ line: String) throws -> SlashCommand? {
    // Apple's `fm chat` also ends on the bare word.
    if line.trimmingCharacters(in: .whitespaces) == "exit" { return .bye }
    guard line.hasPrefix("/") else { return nil }
    let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
    let name = trimmed.prefix { !$0.isWhitespace }
    let rest = trimmed.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
    let words = rest.split(whereSeparator: \.isWhitespace).map(String.init)
    switch name.lowercased() {
    case "/help", "/?": return .help
    case "/bye", "/exit", "/quit": return .bye
    case "/clear": return .clear
    case "/regen", "/regenerate": return .regenerate
    case "/summarize", "/summarise": return .summarize
    case "/set": return .set(try parseSet(rest))
    case "/show":
      guard words.count == 1, let topic = ShowTopic(rawValue: words[0].lowercased()) else {
        throw UsageError("usage: /show \(ShowTopic.allCases.map(\.rawValue).joined(separator: "|"))")
      }
      return .show(topic)
    case "/read":
      guard let path = words.first else { throw UsageError("usage: /read FILE [question about it]") }
      let question = rest.dropFirst(path.count).trimmingCharacters(in: .whitespaces)
      return .read(path: path, prompt: question.isEmpty ? nil : question)
    case "/save":
      guard words.count <= 1 else { throw UsageError("usage: /save [NAME|FILE]") }
      return .save(path: words.first)
    case "/load":
      guard words.count == 1 else { throw UsageError("usage: /load NAME|FILE") }
      return .load(path: words[0])
    case "/history": return .history
    case "/appearance":
      guard words.count == 1, let appearance = TerminalAppearance(rawValue: words[0].lowercased()) else {
        throw UsageError("usage: /appearance dark|light|auto")
      }
      return .appearance(appearance)
    case "/instructions":
      return rest.isEmpty ? .show(.instructions) : .set(.instructions(rest))
    case "/model":
      guard words.count == 1 else { throw UsageError("usage: /model NAME") }
      return .set(.model(words[0]))
    default:
      throw UsageError(
        "unknown command '\(name)'; type /help for the commands (start with a space to send text beginning with /)")
    }
  }

  private static func parseSet(_ text: String) throws -> SettingChange {
    let name = text.prefix { !$0.isWhitespace }.lowercased()
    let value = text.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
    let words = value.split(whereSeparator: \.isWhitespace).map(String.init)
    let isDefault = ["default", "off", "none"].contains(value.lowercased())
    switch name {
    case "instructions", "system":
      return .instructions(value.isEmpty || value.lowercased() == "none" ? nil : value)
    case "model":
      guard words.count == 1 else { throw UsageError("usage: /set model NAME") }
      return .model(words[0])
    case "temperature":
      if isDefault { return .temperature(nil) }
      guard let number = Double(value), (0...1).contains(number) else {
        throw UsageError("usage: /set temperature 0...1|default")
      }
      return .temperature(number)
    case "sampling":
      guard !words.isEmpty else {
        throw UsageError("usage: /set sampling greedy|system|top-k K [seed S]|top-p P [seed S]")
      }
      return .sampling(try SamplingSetting(words: words))
    case "max-tokens":
      return .maximumResponseTokens(isDefault ? nil : try positive(value, usage: "/set max-tokens N|default"))
    case "context-size":
      return .contextSize(isDefault ? nil : try positive(value, usage: "/set context-size N|default"))
    case "summarize-at", "summarise-at":
      if isDefault { return .summarizeAt(nil) }
      guard let percent = Int(value.trimmingCharacters(in: CharacterSet(charactersIn: "% "))),
        (1...100).contains(percent)
      else { throw UsageError("usage: /set summarize-at 1...100|off") }
      return .summarizeAt(percent)
    case "guardrails":
      switch value.lowercased() {
      case "permissive": return .guardrails(permissive: true)
      case "default": return .guardrails(permissive: false)
      default: throw UsageError("usage: /set guardrails permissive|default")
      }
    case "verbose": return .verbose(true)
    case "quiet": return .verbose(false)
    case "think":
      switch value.lowercased() {
      case "on": return .think(true)
      case "off": return .think(false)
      case "default": return .think(nil)
      default: throw UsageError("usage: /set think on|off|default")
      }
    default:
      throw UsageError(
        "usage: /set instructions|temperature|sampling|max-tokens|context-size|guardrails|summarize-at|think|verbose|quiet …"
      )
    }
  }

  private static func positive(_ value: String, usage: String) throws -> Int {
    guard let number = Int(value), number > 0 else { throw UsageError("usage: \(usage)") }
    return number
  }
}
