import Foundation
import FoundationModels

/// A transcript read from a file (`--load-transcript`): FoundationModels' JSON form of a
/// `Transcript`, or an `fm chat` save, whose transcript it holds.
enum TranscriptFile {
  /// - Throws: `UsageError` for a file that is missing or neither.
  static func read(_ path: String) throws -> Transcript {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw UsageError("cannot read --load-transcript \(path)")
    }
    if let transcript = try? JSONDecoder().decode(Transcript.self, from: data) { return transcript }
    if let save = try? JSONDecoder().decode(ChatSaveFile.self, from: data), save.format == ChatSaveFile.formatName {
      return save.transcript
    }
    throw UsageError("--load-transcript \(path) is neither a transcript's JSON nor an fm chat save")
  }

  /// `entries` with `instructions` (when given) in place of their own.
  static func entries(_ entries: [Transcript.Entry], instructions: String?) -> [Transcript.Entry] {
    guard let instructions else { return entries }
    let instructionsEntry = Transcript.Entry.instructions(
      Transcript.Instructions(segments: [.text(.init(content: instructions))], toolDefinitions: []))
    return [instructionsEntry] + entries.filter { if case .instructions = $0 { false } else { true } }
  }

  /// Writes `transcript` as JSON at `path` (`--save-transcript`), atomically.
  static func write(_ transcript: Transcript, to path: String) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    try encoder.encode(transcript).write(to: URL(fileURLWithPath: path), options: .atomic)
  }
}
