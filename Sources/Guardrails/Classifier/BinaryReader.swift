/// Reads the little-endian fields of the guardrails' weight files, throwing
/// ``ClassifierWeights/FormatError`` when the bytes run out.
struct BinaryReader {
  let bytes: [UInt8]
  var offset = 0

  var isAtEnd: Bool { offset == bytes.count }

  mutating func bytes(_ count: Int) throws -> ArraySlice<UInt8> {
    guard offset + count <= bytes.count else {
      throw ClassifierWeights.FormatError(description: "weights file is cut short")
    }
    defer { offset += count }
    return bytes[offset..<(offset + count)]
  }

  mutating func uint32() throws -> UInt32 {
    try bytes(4).reversed().reduce(0) { $0 << 8 | UInt32($1) }
  }

  mutating func float() throws -> Float {
    Float(bitPattern: try uint32())
  }
}
