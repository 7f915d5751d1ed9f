import Foundation
import FoundationModels

/// A saved chat: the transcript in FoundationModels' JSON form, the settings and the model.
///
/// Written by `/save` and after every turn with `--session`; read by `/load` and `--resume`.
struct ChatSaveFile: Codable, Equatable, Sendable {
  /// Marks the file as an `fm chat` save, so `/load` of another JSON file fails clearly.
  var format = Self.formatName
  var version = 1
  /// The model's catalogue name or path (also in `settings`; here for people reading the file).
  var model: String
  var settings: ChatSettings
  var transcript: Transcript

  static let formatName = "fm-chat"

  init(settings: ChatSettings, transcript: Transcript) {
    model = settings.model
    self.settings = settings
    self.transcript = transcript
  }

  /// Writes the file atomically: a temporary file in the same directory renamed over the old
  /// one, so a crash mid-write leaves the previous save intact.
  func write(to url: URL) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let data = try encoder.encode(self)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try data.write(to: url, options: .atomic)
  }

  /// Reads a save.
  /// - Throws: `ChatError` when the file is missing, not JSON, or not an `fm chat` save.
  static func read(from url: URL) throws -> ChatSaveFile {
    guard let data = FileManager.default.contents(atPath: url.path) else {
      throw ChatError("cannot read \(url.path)")
    }
    do {
      let file = try JSONDecoder().decode(ChatSaveFile.self, from: data)
      guard file.format == formatName else { throw ChatError("\(url.path) is not an fm chat save") }
      return file
    } catch let error as DecodingError {
      throw ChatError("\(url.path) is not an fm chat save (\(error.shortDescription))")
    }
  }
}
