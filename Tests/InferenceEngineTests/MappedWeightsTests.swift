import CLlama
import FMTestSupport
import Foundation
import Testing

@testable import InferenceEngine

@Suite struct GGUFTensorTableTests {
  @Test(arguments: [nil, 64, 4096])
  func rangesRunFromEachTensorToTheNext(alignment: Int?) throws {
    let writer = GGUFFileWriter(
      alignment: alignment, sizes: [("token_embd.weight", 100), ("output.weight", 5000), ("blk.0.ffn_up.weight", 33)])
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
    let data = GGUFFileWriter(alignment: nil, sizes: [("token_embd.weight", 64)]).data()
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
    #expect(
      LlamaRuntime.repackedTensorName(in: "repack: repack tensor blk.0.attn_q.weight with q4_K_8x8\n")
        == "blk.0.attn_q.weight")
    #expect(LlamaRuntime.repackedTensorName(in: "load_tensors: CPU_REPACK model buffer size = 596.53 MiB\n") == nil)
  }

  @Test func embeddingRowsAreReleasedOnlyWhenTheOutputLayerHasItsOwnMatrix() throws {
    let directory = try TemporaryDirectory()
    let separate = directory.url.appendingPathComponent("separate.gguf")
    let writer = GGUFFileWriter(
      alignment: nil, sizes: [("token_embd.weight", 4096), ("output.weight", 4096), ("blk.0.ffn_up.weight", 4096)])
    try writer.data().write(to: separate)
    let tied = directory.url.appendingPathComponent("tied.gguf")
    try GGUFFileWriter(alignment: nil, sizes: [("token_embd.weight", 4096), ("blk.0.ffn_up.weight", 4096)]).data()
      .write(to: tied)

    let ranges = try GGUFTensorTable(path: separate.path).ranges
    let pages = UnusedWeightPages(path: separate.path, repackedTensors: ["blk.0.ffn_up.weight"])
    #expect(pages.repackedRanges == [try #require(ranges["blk.0.ffn_up.weight"])])
    #expect(pages.embeddingRange == ranges["token_embd.weight"])
    #expect(UnusedWeightPages(path: tied.path, repackedTensors: []).embeddingRange == nil)
  }
}

/// Whether each of `count` pages from `address` is mapped in this process
/// (/proc/self/pagemap: one 64-bit entry per page, bit 63 set when present).
private func presentPages(at address: Int, count: Int) throws -> [Bool] {
  let page = Int(getpagesize())
  let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/pagemap"))
  defer { try? handle.close() }
  try handle.seek(toOffset: UInt64(address / page * 8))
  let data = try #require(try handle.read(upToCount: count * 8))
  return (0..<count).map { index in
    data.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self) } >> 63 == 1
  }
}

@Suite struct MappedWeightsTests {
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
    let present = try presentPages(at: Int(bitPattern: mapped), count: pageCount)
    #expect(present[3..<6].allSatisfy { !$0 })
    #expect(present[2] && present[6])

    touchAll()
    weights.releaseAll()
    #expect(try presentPages(at: Int(bitPattern: mapped), count: pageCount).allSatisfy { !$0 })
  }
}

/// A one-layer llama model with zero weights, small enough to write in a test but with
/// q4_0 matrices large enough (several pages each) for llama.cpp's CPU backend to repack.
private enum TinyRepackedModel {
  static let width = 512
  static let hidden = 1024
  static let vocabulary = 64

  static func write(to url: URL) throws {
    func quantized4Bit(_ columns: Int, _ rows: Int, _ name: String) -> GGUFFileWriter.Tensor {
      // q4_0: blocks of 32 values in 18 bytes (an f16 scale and 16 bytes of nibbles).
      .init(name: name, dimensions: [columns, rows], type: 2, bytes: rows * columns / 32 * 18)
    }
    func f32(_ dimensions: [Int], _ name: String) -> GGUFFileWriter.Tensor {
      .init(name: name, dimensions: dimensions, type: 0, bytes: dimensions.reduce(4, *))
    }
    let writer = GGUFFileWriter(
      metadata: [
        ("general.architecture", .string("llama")), ("llama.context_length", .uint32(256)),
        ("llama.embedding_length", .uint32(UInt32(width))), ("llama.block_count", .uint32(1)),
        ("llama.feed_forward_length", .uint32(UInt32(hidden))), ("llama.attention.head_count", .uint32(8)),
        ("llama.attention.head_count_kv", .uint32(8)), ("llama.attention.layer_norm_rms_epsilon", .float32(1e-5)),
        ("llama.vocab_size", .uint32(UInt32(vocabulary))), ("tokenizer.ggml.model", .string("none")),
        (
          "tokenizer.chat_template",
          .string("{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}")
        ),
      ],
      tensors: [
        f32([width, vocabulary], "token_embd.weight"), f32([width], "output_norm.weight"),
        quantized4Bit(width, vocabulary, "output.weight"), f32([width], "blk.0.attn_norm.weight"),
        quantized4Bit(width, width, "blk.0.attn_q.weight"), quantized4Bit(width, width, "blk.0.attn_k.weight"),
        quantized4Bit(width, width, "blk.0.attn_v.weight"), quantized4Bit(width, width, "blk.0.attn_output.weight"),
        f32([width], "blk.0.ffn_norm.weight"), quantized4Bit(width, hidden, "blk.0.ffn_gate.weight"),
        quantized4Bit(hidden, width, "blk.0.ffn_down.weight"), quantized4Bit(width, hidden, "blk.0.ffn_up.weight"),
      ])
    try writer.data().write(to: url)
  }
}

@Suite struct RepackedWeightPagesTests {
  /// Whether llama.cpp's CPU backend repacks q4_0 matrices on this CPU: with AVX2 on x86, with
  /// the dot-product extension on ARM (ggml-cpu's repack.cpp). Older CPUs keep the file layout.
  static var cpuRepacksQ40Matrices: Bool {
    guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return false }
    let flags = info.split(separator: "\n").first { $0.hasPrefix("flags") || $0.hasPrefix("Features") }
    let words = Set(flags?.split(separator: " ").map(String.init) ?? [])
    return words.contains("avx2") || words.contains("asimddp")
  }

  /// llama.cpp names the tensors it repacks only in a debug log line; if that line changes,
  /// this fails rather than the release quietly doing nothing.
  @Test(.enabled(if: cpuRepacksQ40Matrices, "llama.cpp repacks q4_0 only with AVX2 or ARM dot products"))
  func repackedWeightsAndTheEmbeddingTableAreUnmappedAfterAnEvaluation() throws {
    let directory = try TemporaryDirectory()
    let file = directory.url.appendingPathComponent("tiny.gguf")
    try TinyRepackedModel.write(to: file)
    let model = try LlamaModel(path: file.path)
    let tensors = try GGUFTensorTable(path: file.path).ranges
    let matrices = [
      "output", "blk.0.attn_q", "blk.0.attn_k", "blk.0.attn_v", "blk.0.attn_output", "blk.0.ffn_gate", "blk.0.ffn_down",
      "blk.0.ffn_up",
    ]
    #expect(Set(model.unusedPages.repackedRanges) == Set(matrices.compactMap { tensors[$0 + ".weight"] }))
    #expect(model.unusedPages.repackedRanges.count == matrices.count)
    #expect(model.unusedPages.embeddingRange == tensors["token_embd.weight"])

    let backend = try model.makeBackend(ContextConfiguration(contextSize: 64, batchSize: 64, threads: 1))
    _ = try backend.evaluate([1, 2, 3][...], cancellation: CancellationFlag())
    let weights = MappedWeights(path: file.path)
    let released = model.unusedPages.repackedRanges + [try #require(model.unusedPages.embeddingRange)]
    #expect(try wholePagesMapped(in: released, of: weights) == 0)
  }

  /// How many whole pages inside `ranges` (file offsets) are mapped in this process.
  private func wholePagesMapped(in ranges: [Range<Int>], of weights: MappedWeights) throws -> Int {
    let page = Int(getpagesize())
    let mapping = try #require(weights.mappings.first)
    var mapped = 0
    for range in ranges {
      let first = (range.lowerBound + page - 1) / page * page
      let last = range.upperBound / page * page
      guard first < last else { continue }
      let address = Int(mapping.start) + first - mapping.fileOffset
      mapped += try presentPages(at: address, count: (last - first) / page).filter { $0 }.count
    }
    return mapped
  }
}
