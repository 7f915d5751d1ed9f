import Foundation

/// Writes GGUF v3 files for tests: metadata, tensor infos and zeroed tensor data.
struct GGUFFileWriter {
  enum Value {
    case string(String)
    case strings([String])
    case uint32(UInt32)
    case float32(Float)
  }

  struct Tensor {
    var name: String
    /// Elements per dimension, innermost first (GGUF order).
    var dimensions: [Int]
    /// The ggml type number (0 f32, 2 q4_0, …).
    var type: UInt32
    var bytes: Int
  }

  var alignment: Int?
  var metadata: [(key: String, value: Value)]
  var tensors: [Tensor]

  init(alignment: Int? = nil, metadata: [(key: String, value: Value)] = [], tensors: [Tensor]) {
    self.alignment = alignment
    self.metadata = metadata
    self.tensors = tensors
  }

  /// One-dimensional f16 tensors of the given sizes, after a string array and a name, as
  /// real files have before their tensors.
  init(alignment: Int?, sizes: [(name: String, bytes: Int)]) {
    self.init(
      alignment: alignment,
      metadata: [("tokenizer.ggml.tokens", .strings(["a", "bc", "<|im_end|>"])), ("general.name", .string("test"))],
      tensors: sizes.map { Tensor(name: $0.name, dimensions: [$0.bytes / 2], type: 1, bytes: $0.bytes) })
  }

  func data() -> Data {
    var entries = metadata
    if let alignment { entries.append(("general.alignment", .uint32(UInt32(alignment)))) }
    var out = Data("GGUF".utf8)
    append(UInt32(3), to: &out)
    append(UInt64(tensors.count), to: &out)
    append(UInt64(entries.count), to: &out)
    for (key, value) in entries {
      appendString(key, to: &out)
      switch value {
      case .string(let text):
        append(UInt32(8), to: &out)
        appendString(text, to: &out)
      case .strings(let texts):
        append(UInt32(9), to: &out)
        append(UInt32(8), to: &out)
        append(UInt64(texts.count), to: &out)
        for text in texts { appendString(text, to: &out) }
      case .uint32(let number):
        append(UInt32(4), to: &out)
        append(number, to: &out)
      case .float32(let number):
        append(UInt32(6), to: &out)
        append(number.bitPattern, to: &out)
      }
    }
    var offset = 0
    for tensor in tensors {
      appendString(tensor.name, to: &out)
      append(UInt32(tensor.dimensions.count), to: &out)
      for dimension in tensor.dimensions { append(UInt64(dimension), to: &out) }
      append(tensor.type, to: &out)
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
