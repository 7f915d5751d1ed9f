import FMTestSupport
import Foundation
import FoundationModels
import Testing

@testable import FMCommandLine

@Suite struct ChatSettingsTests {
  private func parse(_ arguments: [String], saved: ChatSettings? = nil) throws -> ChatSettings {
    let parsed = try ArgumentParser(options: ChatCommand.options, command: "fm chat").parse(arguments)
    return try ChatSettings(parsed, saved: saved, environment: [:])
  }

  @Test func flagsSetEverySetting() throws {
    let settings = try parse([
      "--model", "smollm2-135m", "--context-size", "512", "--temperature", "0.2", "--sampling", "top-p:0.5", "--seed",
      "9",
      "--max-tokens", "64", "-i", "Be brief.", "--guardrails", "permissive", "--summarize-at", "80", "--verbose",
      "--speculate", "off",
    ])
    #expect(settings.model == "smollm2-135m")
    #expect(settings.contextSize == 512)
    #expect(settings.temperature == 0.2)
    #expect(settings.sampling.description == "top-p 0.5 seed 9")
    #expect(settings.maximumResponseTokens == 64)
    #expect(settings.instructions == "Be brief.")
    #expect(settings.permissiveGuardrails)
    #expect(settings.summarizeAt == 80)
    #expect(settings.verbose)
    #expect(settings.generationOptions.samplingMode == .random(probabilityThreshold: 0.5, seed: 9))
    #expect(settings.makeModel().contextSize == 512)
    #expect(settings.makeModel().speculation == .off)
    #expect(settings.parameterLines.contains("speculate        off"))
    #expect(try parse([]).makeModel().speculation == .lookup)
  }

  /// `--draft-model` chooses draft speculation unless `--speculate` says otherwise (which is
  /// refused); a saved chat keeps it, and flags about speculation replace it.
  @Test func aDraftModelChoosesDraftSpeculation() throws {
    let settings = try parse(["--draft-model", "qwen2.5-coder-0.5b"])
    #expect(settings.makeModel().speculation == .draft)
    #expect(settings.makeModel().draftModel == "qwen2.5-coder-0.5b")
    #expect(settings.parameterLines.contains("speculate        draft, draft model qwen2.5-coder-0.5b"))
    #expect(try parse(["--speculate", "draft", "--draft-model", "x.gguf"]).makeModel().draftModel == "x.gguf")
    #expect(try parse([], saved: settings).makeModel().speculation == .draft)
    let off = try parse(["--speculate", "off"], saved: settings)
    #expect(off.makeModel().speculation == .off)
    #expect(off.draftModel == nil)
  }

  @Test func defaultsUseTheDefaultChatModel() throws {
    let settings = try parse([])
    #expect(settings == ChatSettings(model: "qwen2.5-coder-1.5b"))
    #expect(settings.generationOptions == GenerationOptions())
  }

  @Test func flagsOverrideASavedChatsSettings() throws {
    var saved = ChatSettings(model: "smollm2-135m")
    saved.instructions = "Saved."
    saved.temperature = 0.9
    let settings = try parse(["--temperature", "0.1"], saved: saved)
    #expect(settings.model == "smollm2-135m")
    #expect(settings.instructions == "Saved.")
    #expect(settings.temperature == 0.1)
  }

  @Test(arguments: [
    ["--guardrails", "loose"], ["--summarize-at", "0"], ["--summarize-at", "x"], ["--seed", "3"],
    ["--temperature", "1.5"], ["--context-size", "-1"], ["--speculate", "sometimes"], ["--speculate", "draft"],
    ["--speculate", "lookup", "--draft-model", "qwen2.5-coder-0.5b"],
  ])
  func badValuesAreUsageErrors(arguments: [String]) {
    #expect(throws: UsageError.self) { try parse(arguments) }
  }

  @Test func samplingIsSavedAsTheTextSetAccepts() throws {
    for words in [
      ["greedy"], ["system"], ["top-k", "10"], ["top-k", "5", "seed", "7"], ["top-p", "0.33", "seed", "42"],
    ] {
      let setting = try SamplingSetting(words: words)
      let data = try JSONEncoder().encode(setting)
      #expect(String(decoding: data, as: UTF8.self) == "\"\(words.joined(separator: " "))\"")
      #expect(try JSONDecoder().decode(SamplingSetting.self, from: data) == setting)
    }
  }

  @Test func saveFileRoundTripsTranscriptSettingsAndModel() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var settings = ChatSettings(model: "smollm2-135m")
    settings.instructions = "Be brief."
    settings.sampling = try SamplingSetting(words: ["top-k", "5", "seed", "7"])
    settings.summarizeAt = 75
    let transcript = Transcript(entries: [
      .instructions(Transcript.Instructions(segments: [.text(.init(content: "Be brief."))], toolDefinitions: [])),
      .prompt(Transcript.Prompt(segments: [.text(.init(content: "Hi"))])),
      .response(Transcript.Response(assetIDs: [], segments: [.text(.init(content: "Hello!"))])),
    ])
    let url = directory.url.appendingPathComponent("nested/chat.json")
    try ChatSaveFile(settings: settings, transcript: transcript).write(to: url)
    #expect(try directory.entries() == ["nested"], "no temporary file is left behind")
    let loaded = try ChatSaveFile.read(from: url)
    #expect(loaded.settings == settings)
    #expect(loaded.model == "smollm2-135m")
    #expect(loaded.transcript == transcript)
    let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    #expect(json["format"] as? String == "fm-chat")
    #expect((json["transcript"] as? [String: Any])?["type"] as? String == "FoundationModels.Transcript")
  }

  @Test func loadingSomethingElseFailsClearly() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.url.appendingPathComponent("other.json")
    try Data(#"{"hello": 1}"#.utf8).write(to: url)
    #expect(throws: ChatError.self) { try ChatSaveFile.read(from: url) }
    #expect(throws: ChatError.self) { try ChatSaveFile.read(from: directory.url.appendingPathComponent("none")) }
  }

  @Test func sessionFilesLiveInTheStateDirectory() throws {
    let url = try ChatSessions.url(named: "work", environment: ["XDG_STATE_HOME": "/state"])
    #expect(url.path == "/state/fm/sessions/work.json")
    #expect(throws: UsageError.self) { try ChatSessions.url(named: "../x", environment: [:]) }
  }
}
