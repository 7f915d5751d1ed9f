import Foundation

/// Checks a model path before llama.cpp sees it, so the common mistakes get plain messages.
enum GGUFFileCheck {
  static func validate(path: String) throws {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
      throw EngineError(.modelNotFound, "model file not found: \(path)")
    }
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw EngineError(.invalidModelFile, "cannot read model file: \(path)")
    }
    defer { try? handle.close() }
    let magic = (try? handle.read(upToCount: 4)) ?? Data()
    guard magic == Data("GGUF".utf8) else {
      throw EngineError(.invalidModelFile, "\(path) is not a GGUF model file (it does not start with 'GGUF')")
    }
  }
}
