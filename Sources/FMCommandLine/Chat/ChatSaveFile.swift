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
  /// - Throws: `ChatFileError` when the file is missing, not JSON, or not an `fm chat` save.
  static func read(from url: URL) throws -> ChatSaveFile {
    guard let data = FileManager.default.contents(atPath: url.path) else {
      throw ChatFileError("cannot read \(url.path)")
    }
    do {
      let file = try JSONDecoder().decode(ChatSaveFile.self, from: data)
      guard file.format == formatName else { throw ChatFileError("\(url.path) is not an fm chat save") }
      return file
    } catch let error as DecodingError {
      throw ChatFileError("\(url.path) is not an fm chat save (\(error.shortDescription))")
    }
  }
}

/// A chat file that could not be read or written.
struct ChatFileError: Error, LocalizedError, Sendable {
  let message: String
  init(_ message: String) { self.message = message }
  var errorDescription: String? { message }
}

extension DecodingError {
  /// The reason and the JSON path, in one line.
  var shortDescription: String {
    switch self {
    case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context),
      .valueNotFound(_, let context):
      let path = context.codingPath.map(\.stringValue).joined(separator: ".")
      return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
    @unknown default:
      return "\(self)"
    }
  }
}
