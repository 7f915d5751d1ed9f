import FMTestSupport
import Foundation
import Testing

@testable import FMCommandLine

/// `/appearance`: the colours follow the terminal's background, chosen or read from
/// `COLORFGBG`, and the choice is kept for later runs.
@Suite(.serialized) struct TerminalAppearanceTests {
  @Test func lightTerminalsGetColoursReadableOnWhite() throws {
    defer { TerminalAppearance.choose(.dark, environment: [:]) }
    TerminalAppearance.choose(.light, environment: [:])
    #expect(TerminalStyle.yellow.code == "38;5;130")
    TerminalAppearance.choose(.dark, environment: [:])
    #expect(TerminalStyle.yellow.code == "33")
    TerminalAppearance.choose(.auto, environment: ["COLORFGBG": "0;15"])
    #expect(TerminalAppearance.current == .light)
    TerminalAppearance.choose(.auto, environment: ["COLORFGBG": "15;0"])
    #expect(TerminalAppearance.current == .dark)
    TerminalAppearance.choose(.auto, environment: [:])
    #expect(TerminalAppearance.current == .dark)
  }

  @Test func theChoiceIsKeptForLaterRuns() throws {
    let state = try TemporaryDirectory()
    defer {
      state.remove()
      TerminalAppearance.choose(.dark, environment: [:])
    }
    let environment = ["XDG_STATE_HOME": state.url.path]
    try TerminalAppearance.save(.light, environment: environment)
    TerminalAppearance.choose(.dark, environment: environment)
    TerminalAppearance.load(environment: environment)
    #expect(TerminalAppearance.current == .light)
  }
}
