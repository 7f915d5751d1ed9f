import CLlama
import Foundation

/// Computes the logits of a few tokens itself so that llama.cpp can skip its output layer.
///
/// Why: guided generation often allows only a handful of tokens next (digits, `,` or `}`), yet
/// llama.cpp multiplies the final hidden state by the whole output matrix: 151,936 rows on Qwen,
/// about a fifth of the weights a decode reads. llama.cpp's eval callback can
/// stop a graph after the final norm (the node named "result_norm"); the tap copies those
/// hidden states and takes the dot products of the wanted rows with ggml's own CPU kernels,
/// the `vec_dot` the full product uses, so the logits are the same numbers.
///
/// The tap learns the output matrix from the graph's "result_output" node during the first
/// decode. It stays off when that node is not a plain product of the final norm with a matrix
/// in host memory whose type has a CPU dot product (a bias, a scale or a repacked layout).
final class OutputLayerTap {
  /// The output matrix, once found.
  struct Matrix {
    let data: UnsafeRawPointer
    let rowBytes: Int
    let rows: Int
    let columns: Int
    let dot: ggml_vec_dot_t
    /// Converts a hidden state to the type `dot` takes; nil when it takes floats.
    let quantize: ggml_from_float_t?
    let quantizedRowBytes: Int
  }

  /// Whether the next decode should stop after the final norm (see `prepare(skipping:)`).
  private var skipsOutputLayer = false
  private(set) var matrix: Matrix?
  /// Hidden states of the outputs of the last decode that skipped the output layer, row-major.
  private var hidden: [Float] = []
  /// One hidden state in the type the matrix's dot product takes (sized when it is found).
  private var quantized: [UInt8] = []
  /// Whether the last decode stopped after the final norm.
  private(set) var skipped = false

  /// Call before each decode.
  func prepare(skipping: Bool) {
    skipsOutputLayer = skipping && matrix != nil
    skipped = false
  }

  /// llama.cpp's eval callback: `ask` asks whether we want `tensor`'s data; otherwise it is
  /// computed and returning false stops the graph there.
  func observe(_ tensor: UnsafeMutablePointer<ggml_tensor>, ask: Bool) -> Bool {
    guard let name = ggml_get_name(tensor) else { return false }
    if ask {
      if matrix == nil && strcmp(name, "result_output") == 0 {
        matrix = Self.matrix(of: tensor)
        quantized = [UInt8](repeating: 0, count: matrix?.quantizedRowBytes ?? 0)
      }
      return skipsOutputLayer && strcmp(name, "result_norm") == 0
    }
    let columns = Int(tensor.pointee.ne.0)
    let rows = Int(tensor.pointee.ne.1)
    guard tensor.pointee.type == GGML_TYPE_F32, ggml_is_contiguous(tensor), let data = tensor.pointee.data else {
      return true
    }
    hidden = Array(UnsafeBufferPointer(start: data.assumingMemoryBound(to: Float.self), count: columns * rows))
    skipped = true
    return false
  }

  /// Sets `logits` to the logits of `tokens` after output `index` of the last decode, and every
  /// other entry to -infinity.
  ///
  /// Call only when `skipped`.
  func logits(of tokens: [Token], output index: Int, into logits: UnsafeMutableBufferPointer<Float>) {
    guard let matrix else { return }
    logits.update(repeating: -.infinity)
    let rows = min(matrix.rows, logits.count)
    func multiply(by vector: UnsafeRawPointer) {
      for token in tokens where token >= 0 && Int(token) < rows {
        var value: Float = 0
        matrix.dot(Int32(matrix.columns), &value, 0, matrix.data + Int(token) * matrix.rowBytes, 0, vector, 0, 1)
        logits[Int(token)] = value
      }
    }
    hidden.withUnsafeBufferPointer { states in
      guard let base = states.baseAddress else { return }
      let state = base + index * matrix.columns
      guard let quantize = matrix.quantize else { return multiply(by: state) }
      quantized.withUnsafeMutableBytes { buffer in
        guard let address = buffer.baseAddress else { return }
        quantize(state, address, Int64(matrix.columns))
        multiply(by: address)
      }
    }
  }

  /// The output matrix of a "result_output" node, or nil when the tap cannot stand in for it.
  private static func matrix(of node: UnsafeMutablePointer<ggml_tensor>) -> Matrix? {
    guard node.pointee.op == GGML_OP_MUL_MAT, let weight = node.pointee.src.0, let input = node.pointee.src.1,
      let inputName = ggml_get_name(input), strcmp(inputName, "result_norm") == 0, let buffer = weight.pointee.buffer,
      ggml_backend_buffer_is_host(buffer), ggml_is_contiguous(weight), let data = weight.pointee.data,
      let traits = ggml_get_type_traits_cpu(weight.pointee.type), let dot = traits.pointee.vec_dot,
      traits.pointee.nrows == 1
    else { return nil }
    // Repacked weights live in a buffer of their own layout; only plain rows can be read.
    if let name = ggml_backend_buffer_name(buffer), strstr(name, "REPACK") != nil { return nil }
    let columns = Int(weight.pointee.ne.0)
    let dotType = traits.pointee.vec_dot_type
    var quantize: ggml_from_float_t?
    if dotType != GGML_TYPE_F32 {
      guard let converter = ggml_get_type_traits_cpu(dotType)?.pointee.from_float else { return nil }
      quantize = converter
    }
    return Matrix(
      data: UnsafeRawPointer(data), rowBytes: Int(weight.pointee.nb.1), rows: Int(weight.pointee.ne.1),
      columns: columns, dot: dot, quantize: quantize, quantizedRowBytes: ggml_row_size(dotType, Int64(columns)))
  }
}
