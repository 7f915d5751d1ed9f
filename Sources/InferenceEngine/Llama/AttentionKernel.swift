import CLlama
import Foundation
import Synchronization

/// Which of llama.cpp's two CPU attention kernels a context uses: flash attention (one fused
/// operation that walks the cache once per query row) or the plain one (a matrix product with
/// the keys, a softmax, a matrix product with the values).
///
/// Neither is faster everywhere. Which one wins depends on the model's attention shape (head
/// size, heads per cache head) and on the CPU and the kernels llama.cpp was built with: on some
/// machines flash attention evaluates a short prompt over a long cache several times slower than
/// the plain kernel, on others it is the faster of the two. llama.cpp's default (`auto`) turns
/// flash attention on wherever the backend supports it; `AttentionKernel.measured(for:threads:)`
/// times both on this machine instead, with the model's shape, and a context uses the faster.
public enum AttentionKernel: String, Sendable, Equatable, CaseIterable {
  case flash
  case plain

  /// The shape of a model's attention: what the kernels' cost depends on besides the cache's
  /// length and the machine.
  public struct Shape: Hashable, Sendable {
    public var heads: Int
    public var keyValueHeads: Int
    public var keySize: Int
    public var valueSize: Int

    public init(heads: Int, keyValueHeads: Int, keySize: Int, valueSize: Int) {
      self.heads = heads
      self.keyValueHeads = keyValueHeads
      self.keySize = keySize
      self.valueSize = valueSize
    }

    /// Whether `AttentionTrial` can build this shape's attention.
    var isTimeable: Bool {
      heads > 0 && keyValueHeads > 0 && heads % keyValueHeads == 0 && keySize > 0 && valueSize > 0
    }
  }

  /// What the choice weighs: one layer's attention for these many query rows over a cache of
  /// `depth` tokens, per query row. A conversation's turns evaluate a few dozen new tokens and
  /// then generate one at a time over a cache of a few thousand, which is where the kernels
  /// differ most; a long first prompt is evaluated in large batches, where they differ least,
  /// and per row such a batch weighs little.
  static let workload: [(queries: Int, depth: Int)] = [(1, 2048), (32, 2048), (256, 1024)]

  /// The kernel whose time per query row, summed over `workload`, is lower on this machine,
  /// measured once for each shape and thread count (a fraction of a second) and kept in memory
  /// and in `file` (`attention-kernels` in the project's cache), so a later process on the same
  /// machine and llama.cpp build reads it there.
  /// Flash attention unless the plain kernel is faster by more than the measurement's noise
  /// (`margin`), since flash attention needs less memory for long prompts; flash attention, as
  /// llama.cpp's default, for a shape without attention heads to time (a recurrent model's) or
  /// whose heads do not share cache heads evenly.
  public static func measured(
    for shape: Shape, threads: Int, file: MeasurementFile? = .named("attention-kernels")
  ) -> AttentionKernel {
    guard shape.isTimeable else { return .flash }
    if let known = known(for: shape, threads: threads) { return known }
    let key = choiceKey(for: shape, threads: threads)
    let choice =
      file.flatMap { $0.values()[key].flatMap(AttentionKernel.init(rawValue:)) }
      ?? {
        let seconds = secondsPerRow(for: shape, threads: threads)
        let choice = choose(flash: seconds[.flash] ?? .infinity, plain: seconds[.plain] ?? .infinity)
        file?.append(choice.rawValue, for: key)
        return choice
      }()
    measurements.withLock { $0[MeasuredKey(shape: shape, threads: threads)] = choice }
    return choice
  }

  /// What a choice holds for: the shape and the threads, on this machine and build
  /// (`MeasurementFile.key`).
  static func choiceKey(for shape: Shape, threads: Int) -> String {
    MeasurementFile.key("\(shape.heads) \(shape.keyValueHeads) \(shape.keySize) \(shape.valueSize) \(threads)")
  }

  /// The kernel measured for `shape` and `threads` in this process so far, if any.
  static func known(for shape: Shape, threads: Int) -> AttentionKernel? {
    measurements.withLock { $0[MeasuredKey(shape: shape, threads: threads)] }
  }

  /// Each kernel's time per query row on this machine, summed over `workload`, in seconds.
  public static func secondsPerRow(for shape: Shape, threads: Int) -> [AttentionKernel: Double] {
    var seconds: [AttentionKernel: Double] = [:]
    for kernel in allCases {
      seconds[kernel] = workload.reduce(0) { sum, load in
        let trial = AttentionTrial(shape: shape, queries: load.queries, depth: load.depth, threads: threads)
        return sum + trial.seconds(kernel) / Double(load.queries)
      }
    }
    return seconds
  }

  /// How much faster the plain kernel must be for it to be chosen.
  static let margin = 1.15

  /// The kernel chosen from the two measured times (per query row, summed over the workload).
  static func choose(flash: Double, plain: Double) -> AttentionKernel {
    plain * margin < flash ? .plain : .flash
  }

  private struct MeasuredKey: Hashable {
    let shape: Shape
    let threads: Int
  }
  private static let measurements = Mutex<[MeasuredKey: AttentionKernel]>([:])

  /// The fewest rows an evaluation needs for its rows' logits to be those they get in a larger
  /// one (`TokenBackend.consistentRows`): flash attention rounds one row as it rounds a few, the
  /// plain kernel's one-row products take another path through ggml's matrix code and round
  /// otherwise.
  var consistentRows: Int { self == .plain ? 2 : 1 }

  /// llama.cpp's setting for this kernel: flash attention as its default has it (`auto`, on
  /// wherever the backend supports the model's attention), so a context that keeps it is
  /// created as before.
  var llamaType: llama_flash_attn_type {
    switch self {
    case .flash: LLAMA_FLASH_ATTN_TYPE_AUTO
    case .plain: LLAMA_FLASH_ATTN_TYPE_DISABLED
    }
  }
}

/// One layer's attention as llama.cpp builds it, on a cache of zeros in host memory, timed with
/// ggml's CPU backend: the kernels' cost does not depend on the values.
public struct AttentionTrial {
  public let shape: AttentionKernel.Shape
  public let queries: Int
  public let depth: Int
  public let threads: Int

  public init(shape: AttentionKernel.Shape, queries: Int, depth: Int, threads: Int) {
    self.shape = shape
    self.queries = queries
    self.depth = depth
    self.threads = threads
  }

  /// The fastest of a few evaluations with `kernel`, in seconds; infinity where ggml cannot
  /// build or run it (the other kernel is then chosen) or the shape has no attention to time
  /// (`Shape.isTimeable`).
  public func seconds(_ kernel: AttentionKernel, repetitions: Int = 3) -> Double {
    guard shape.isTimeable, queries > 0, depth > 0 else { return .infinity }
    // The inputs, the scores (and their softmax) of every head, the output, and room for the
    // graph and ggml's work buffer.
    let floats = (shape.keySize + shape.valueSize) * queries * shape.heads + 3 * depth * queries * shape.heads
    let halves = (shape.keySize + shape.valueSize) * depth * shape.keyValueHeads + depth * queries
    let parameters = ggml_init_params(mem_size: 4 * floats + 2 * halves + (32 << 20), mem_buffer: nil, no_alloc: false)
    guard let context = ggml_init(parameters) else { return .infinity }
    defer { ggml_free(context) }
    func zeros(_ type: ggml_type, _ sizes: Int...) -> UnsafeMutablePointer<ggml_tensor>? {
      let tensor =
        sizes.count == 2
        ? ggml_new_tensor_2d(context, type, Int64(sizes[0]), Int64(sizes[1]))
        : ggml_new_tensor_3d(context, type, Int64(sizes[0]), Int64(sizes[1]), Int64(sizes[2]))
      if let tensor, let data = ggml_get_data(tensor) { memset(data, 0, ggml_nbytes(tensor)) }
      return tensor
    }
    let q = zeros(GGML_TYPE_F32, shape.keySize, queries, shape.heads)
    let k = zeros(GGML_TYPE_F16, shape.keySize, depth, shape.keyValueHeads)
    let scale = 1 / Float(shape.keySize).squareRoot()
    let output: UnsafeMutablePointer<ggml_tensor>?
    switch kernel {
    case .flash:
      let v = zeros(GGML_TYPE_F16, shape.valueSize, depth, shape.keyValueHeads)
      output = ggml_flash_attn_ext(context, q, k, v, zeros(GGML_TYPE_F16, depth, queries), scale, 0, 0)
      if let output { ggml_prec_set_acc(output, GGML_PREC_F32) }
    case .plain:
      // The values transposed, as llama.cpp caches them for this kernel.
      let v = zeros(GGML_TYPE_F16, depth, shape.valueSize, shape.keyValueHeads)
      let scores = ggml_mul_mat(context, k, q)
      if let scores { ggml_prec_set_acc(scores, GGML_PREC_F32) }
      let weights = ggml_soft_max_ext(context, scores, zeros(GGML_TYPE_F32, depth, queries), scale, 0)
      output = ggml_mul_mat(context, v, weights)
    }
    guard let output, let graph = ggml_new_graph(context) else { return .infinity }
    ggml_build_forward_expand(graph, output)
    // The first evaluation warms the caches and the thread pool; the fastest of the rest counts.
    var best = Double.infinity
    for repetition in 0...repetitions {
      let start = DispatchTime.now().uptimeNanoseconds
      guard ggml_graph_compute_with_ctx(context, graph, Int32(threads)) == GGML_STATUS_SUCCESS else { return .infinity }
      if repetition > 0 { best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9) }
    }
    return best
  }
}
