import FMTestSupport
import Foundation
import Testing

@testable import FMCommandLine

@Suite struct LineHistoryFileTests {
  @Test func appendedEntriesLoadBackWithNewlinesAndBackslashes() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = LineHistoryFile(url: directory.url.appendingPathComponent("state/fm/history"))
    #expect(file.load().isEmpty)
    let entries = ["hello", "two\nlines", #"back\slash \n literal"#]
    entries.forEach(file.append)
    #expect(file.load() == entries)
    let attributes = try FileManager.default.attributesOfItem(atPath: file.url.path)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
  }

  @Test func loadKeepsTheNewestEntriesUpToTheLimit() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var file = LineHistoryFile(url: directory.url.appendingPathComponent("history"))
    file.limit = 3
    (1...10).map(String.init).forEach(file.append)
    #expect(file.load() == ["8", "9", "10"])
    #expect(file.load() == ["8", "9", "10"], "the file was cut back to the limit")
  }

  @Test func defaultLocationFollowsXDG() {
    #expect(LineHistoryFile.defaultURL(environment: ["XDG_STATE_HOME": "/s"]).path == "/s/fm/history")
    #expect(LineHistoryFile.defaultURL(environment: ["HOME": "/h"]).path == "/h/.local/state/fm/history")
  }
}
