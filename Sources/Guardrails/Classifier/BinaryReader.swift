/// Reads the little-endian fields of the guardrails' weight files (and `guardrails-train`'s
/// embedding cache), throwing ``ClassifierWeights/FormatError`` when the bytes run out.
public struct BinaryReader {
  let bytes: [UInt8]
  var offset = 0

  public init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  public var isAtEnd: Bool { offset == bytes.count }

  /// Bytes not read yet.
  public var remaining: Int { bytes.count - offset }

  public mutating func bytes(_ count: Int) throws -> ArraySlice<UInt8> {
    guard offset + count <= bytes.count else {
      throw ClassifierWeights.FormatError(description: "weights file is cut short")
    }
    defer { offset += count }
    return bytes[offset..<(offset + count)]
  }

  public mutating func uint32() throws -> UInt32 {
    try bytes(4).reversed().reduce(0) { $0 << 8 | UInt32($1) }
  }

  public mutating func uint64() throws -> UInt64 {
    try bytes(8).reversed().reduce(0) { $0 << 8 | UInt64($1) }
  }

  public mutating func float() throws -> Float {
    Float(bitPattern: try uint32())
  }
}
