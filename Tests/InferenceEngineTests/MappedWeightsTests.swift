import CLlama
import FMTestSupport
import Foundation
import Testing

@testable import InferenceEngine

/// Writes small GGUF v3 files: metadata, tensor infos and zeroed data.
private struct GGUFFileWriter {
  var alignment: Int?
  /// Name and data size; tensors are laid out in this order.
  var tensors: [(name: String, bytes: Int)]

  func data() -> Data {
    var out = Data("GGUF".utf8)
    append(UInt32(3), to: &out)
    append(UInt64(tensors.count), to: &out)
    append(UInt64(alignment == nil ? 2 : 3), to: &out)
    // A string array and a scalar before the alignment, as real files have.
    appendString("tokenizer.ggml.tokens", to: &out)
    append(UInt32(9), to: &out)
    append(UInt32(8), to: &out)
    append(UInt64(3), to: &out)
    for token in ["a", "bc", "<|im_end|>"] { appendString(token, to: &out) }
    appendString("general.name", to: &out)
    append(UInt32(8), to: &out)
    appendString("test", to: &out)
    if let alignment {
      appendString("general.alignment", to: &out)
      append(UInt32(4), to: &out)
      append(UInt32(alignment), to: &out)
    }
    var offset = 0
    for tensor in tensors {
      appendString(tensor.name, to: &out)
      append(UInt32(1), to: &out)
      append(UInt64(tensor.bytes), to: &out)
      append(UInt32(1), to: &out)  // GGML_TYPE_F16: two bytes per element; the size is what matters
      append(UInt64(offset), to: &out)
      offset += padded(tensor.bytes)
    }
    out.append(Data(count: padded(out.count) - out.count))
    out.append(Data(count: offset))
    return out
  }

  /// Where each tensor's data starts in the file written by `data()`.
  func expectedStarts(fileLength: Int) -> [Int] {
    let dataBytes = tensors.reduce(0) { $0 + padded($1.bytes) }
    var start = fileLength - dataBytes
    return tensors.map { tensor in
      defer { start += padded(tensor.bytes) }
      return start
    }
  }

  private func padded(_ count: Int) -> Int {
    let alignment = alignment ?? 32
    return (count + alignment - 1) / alignment * alignment
  }

  private func append<T: FixedWidthInteger>(_ value: T, to data: inout Data) {
    withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
  }

  private func appendString(_ text: String, to data: inout Data) {
    append(UInt64(text.utf8.count), to: &data)
    data.append(contentsOf: Array(text.utf8))
  }
}

@Suite struct GGUFTensorTableTests {
  @Test(arguments: [nil, 64, 4096])
  func rangesRunFromEachTensorToTheNext(alignment: Int?) throws {
    let writer = GGUFFileWriter(
      alignment: alignment, tensors: [("token_embd.weight", 100), ("output.weight", 5000), ("blk.0.ffn_up.weight", 33)])
    let directory = try TemporaryDirectory()
    let file = directory.url.appendingPathComponent("model.gguf")
    let data = writer.data()
    try data.write(to: file)

    let ranges = try GGUFTensorTable(path: file.path).ranges
    let starts = writer.expectedStarts(fileLength: data.count)
    #expect(ranges["token_embd.weight"] == starts[0]..<starts[1])
    #expect(ranges["output.weight"] == starts[1]..<starts[2])
    #expect(ranges["blk.0.ffn_up.weight"] == starts[2]..<data.count)
  }

  @Test func truncatedHeaderIsRejected() throws {
    let data = GGUFFileWriter(alignment: nil, tensors: [("token_embd.weight", 64)]).data()
    let directory = try TemporaryDirectory()
    let file = directory.url.appendingPathComponent("model.gguf")
    try data.prefix(60).write(to: file)
    #expect(throws: GGUFTensorTable.Malformed.self) { try GGUFTensorTable(path: file.path) }
  }

  /// The same offsets as llama.cpp's own GGUF reader on the bundled model.
  @Test func matchesGGMLOnTheTestModel() throws {
    let path = TestModels.smolLM2Path
    let ranges = try GGUFTensorTable(path: path).ranges
    // gguf_init_from_file(no_alloc): metadata only; freed with gguf_free.
    let context = try #require(gguf_init_from_file(path, gguf_init_params(no_alloc: true, ctx: nil)))
    defer { gguf_free(context) }
    let dataOffset = gguf_get_data_offset(context)
    #expect(ranges.count == Int(gguf_get_n_tensors(context)))
    for index in 0..<gguf_get_n_tensors(context) {
      let name = String(cString: gguf_get_tensor_name(context, index))
      let range = try #require(ranges[name])
      #expect(range.lowerBound == dataOffset + gguf_get_tensor_offset(context, index))
      #expect(range.count >= gguf_get_tensor_size(context, index))
    }
  }
}

@Suite struct UnusedWeightPagesTests {
  @Test func repackedTensorNamesComeFromTheCPUBackendLog() {
    #expect(LlamaRuntime.repackedTensorName(in: "repack: repack tensor blk.0.attn_q.weight with q4_K_8x8\n") == "blk.0.attn_q.weight")
    #expect(LlamaRuntime.repackedTensorName(in: "load_tensors: CPU_REPACK model buffer size = 596.53 MiB\n") == nil)
  }

  @Test func embeddingRowsAreReleasedOnlyWhenTheOutputLayerHasItsOwnMatrix() throws {
    let directory = try TemporaryDirectory()
    let separate = directory.url.appendingPathComponent("separate.gguf")
    let writer = GGUFFileWriter(
      alignment: nil, tensors: [("token_embd.weight", 4096), ("output.weight", 4096), ("blk.0.ffn_up.weight", 4096)])
    try writer.data().write(to: separate)
    let tied = directory.url.appendingPathComponent("tied.gguf")
    try GGUFFileWriter(alignment: nil, tensors: [("token_embd.weight", 4096), ("blk.0.ffn_up.weight", 4096)]).data()
      .write(to: tied)

    let ranges = try GGUFTensorTable(path: separate.path).ranges
    let pages = UnusedWeightPages(path: separate.path, repackedTensors: ["blk.0.ffn_up.weight"])
    #expect(pages.repackedRanges == [try #require(ranges["blk.0.ffn_up.weight"])])
    #expect(pages.embeddingRange == ranges["token_embd.weight"])
    #expect(UnusedWeightPages(path: tied.path, repackedTensors: []).embeddingRange == nil)
  }
}

@Suite struct MappedWeightsTests {
  /// Whether each page of `count` pages from `address` is mapped in this process
  /// (/proc/self/pagemap: one 64-bit entry per page, bit 63 set when present).
  private func presentPages(_ address: UnsafeRawPointer, count: Int) throws -> [Bool] {
    let page = Int(getpagesize())
    let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/pagemap"))
    defer { try? handle.close() }
    try handle.seek(toOffset: UInt64(Int(bitPattern: address) / page * 8))
    let data = try #require(try handle.read(upToCount: count * 8))
    return (0..<count).map { index in
      data.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self) } >> 63 == 1
    }
  }

  @Test func releasesWholePagesInsideTheRangesAndKeepsTheirNeighbours() throws {
    let page = Int(getpagesize())
    let pageCount = 16
    let directory = try TemporaryDirectory()
    let file = directory.url.appendingPathComponent("weights.bin")
    try Data(repeating: 7, count: page * pageCount).write(to: file)
    let descriptor = open(file.path, O_RDONLY)
    #expect(descriptor >= 0)
    defer { close(descriptor) }
    let mapped = try #require(mmap(nil, page * pageCount, PROT_READ, MAP_PRIVATE, descriptor, 0))
    #expect(mapped != MAP_FAILED)
    defer { munmap(mapped, page * pageCount) }
    func touchAll() {
      var sum = 0
      for index in 0..<pageCount { sum &+= Int(mapped.load(fromByteOffset: index * page, as: UInt8.self)) }
      #expect(sum == 7 * pageCount)
    }

    let weights = MappedWeights(path: file.path)
    #expect(weights.mappings.count == 1)
    touchAll()
    // Bytes 2.5 pages to 6.5 pages: only pages 3, 4 and 5 lie wholly inside.
    weights.release(fileRanges: [(page * 5 / 2)..<(page * 13 / 2)])
    let present = try presentPages(mapped, count: pageCount)
    #expect(present[3..<6].allSatisfy { !$0 })
    #expect(present[2] && present[6])

    touchAll()
    weights.releaseAll()
    #expect(try presentPages(mapped, count: pageCount).allSatisfy { !$0 })
  }
}
