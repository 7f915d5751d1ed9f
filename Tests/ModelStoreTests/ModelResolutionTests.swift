import FMTestSupport
import Foundation
import ModelStore
import Testing

@Suite struct ModelResolutionTests {
  /// Puts a file of the catalogue size and a verified marker in place, without 98 MB of writing.
  private func fakePresent(_ model: ModelDescriptor, in store: ModelStore) throws {
    let path = store.path(for: model)
    #expect(FileManager.default.createFile(atPath: path.path, contents: nil))
    let handle = try FileHandle(forWritingTo: path)
    // A sparse file: right size, no blocks written.
    try handle.truncate(atOffset: UInt64(model.byteCount))
    try handle.close()
    try Data(model.sha256.utf8).write(to: store.directory.appendingPathComponent("\(model.fileName).sha256-ok"))
  }

  @Test func catalogueNameOfPresentModel() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = ModelStore(directory: directory.url)
    try fakePresent(ModelCatalog.smolLM2, in: store)

    let resolved = try store.resolve("smollm2-135m")

    #expect(resolved.path == store.path(for: ModelCatalog.smolLM2))
    #expect(resolved.descriptor == ModelCatalog.smolLM2)
    #expect(resolved.displayName == "smollm2-135m")
  }

  @Test func catalogueNameOfMissingModelSaysWhichModelAndWhereItLooked() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = ModelStore(directory: directory.url)

    let error = #expect(throws: ModelStoreError.self) { try store.resolve("qwen2.5-coder-1.5b") }

    #expect(error?.code == .modelNotDownloaded)
    #expect(error?.modelName == "qwen2.5-coder-1.5b")
    #expect(error?.message.contains(store.path(for: ModelCatalog.qwen25Coder15B).path) == true)
    // Advice naming a command is the caller's to give (fm, the library).
    #expect(error?.message.contains("fm ") == false)
    #expect(error?.message.contains("scripts/") == false)
  }

  @Test func pathToAFile() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.url.appendingPathComponent("my model.gguf")
    try Data("GGUF".utf8).write(to: file)
    let store = ModelStore(directory: directory.url)

    let resolved = try store.resolve(file.path)

    #expect(resolved.path.path == file.path)
    #expect(resolved.descriptor == nil)
    #expect(resolved.displayName == "my model.gguf")
  }

  @Test(arguments: ["./missing.gguf", "/no/such/dir/model.gguf", "missing.gguf"])
  func pathToNothing(reference: String) throws {
    let store = ModelStore(directory: URL(fileURLWithPath: "/nonexistent"))
    let error = #expect(throws: ModelStoreError.self) { try store.resolve(reference) }
    #expect(error?.code == .fileNotFound)
  }

  @Test func unknownWordNamesTheCatalogue() throws {
    let store = ModelStore(directory: URL(fileURLWithPath: "/nonexistent"))
    let error = #expect(throws: ModelStoreError.self) { try store.resolve("llama-70b") }
    #expect(error?.code == .unknownModel)
    #expect(error?.modelName == "llama-70b")
    #expect(error?.message.contains("smollm2-135m") == true)
    #expect(error?.message.contains("fm ") == false)
  }
}
