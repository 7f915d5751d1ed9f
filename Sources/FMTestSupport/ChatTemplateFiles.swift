import Foundation
import InferenceEngine

/// The chat templates of the pinned llama.cpp's `models/templates` (70 model families), which
/// `scripts/build-llama` installs with the build in `.deps/llama/share/chat-templates`; they
/// come with the dependency and are never copied into this repository.
public enum ChatTemplateFiles {
  public static var directory: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent(".deps/llama/share/chat-templates")
  }

  /// The file names, sorted.
  public static func names() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".jinja") }.sorted()
  }

  /// A template's source by file name, such as `google-gemma-2-2b-it.jinja`.
  public static func source(_ name: String) throws -> String {
    try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
  }
}
