import Foundation

/// Where each tensor's data lies in a GGUF file, read from the file's header.
///
/// GGUF (v2 and v3, little-endian): a header, metadata key/value pairs, one info record per
/// tensor (name, dimensions, type, offset into the data section), then the data section,
/// aligned to `general.alignment` (32 by default). A tensor's bytes run from its offset to
/// the next tensor's (padding included); the last one runs to the end of the file.
struct GGUFTensorTable {
  /// File byte ranges by tensor name.
  let ranges: [String: Range<Int>]

  /// Reads the table of the file at `path`.
  /// - Throws: `GGUFTensorTable.Malformed` when the header is truncated or inconsistent.
  init(path: String) throws {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { throw Malformed() }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_size > 0 else { throw Malformed() }
    let length = Int(status.st_size)
    // Mapped rather than read, so that only the header's pages are touched (Foundation's
    // `.alwaysMapped` reads the whole file on Linux).
    guard let mapped = mmap(nil, length, PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED else {
      throw Malformed()
    }
    defer { munmap(mapped, length) }
    ranges = try Self.parse(GGUFReader(bytes: UnsafeRawBufferPointer(start: mapped, count: length)))
  }

  struct Malformed: Error {}

  private static func parse(_ input: GGUFReader) throws -> [String: Range<Int>] {
    var reader = input
    guard try reader.bytes(4).elementsEqual("GGUF".utf8) else { throw Malformed() }
    guard (2...3).contains(try reader.integer(UInt32.self)) else { throw Malformed() }
    let tensorCount = try reader.count()
    let keyCount = try reader.count()
    var alignment = 32
    for _ in 0..<keyCount {
      let key = try reader.string()
      let type = try reader.integer(UInt32.self)
      if key == "general.alignment", type == GGUFReader.uint32 {
        alignment = Int(try reader.integer(UInt32.self))
      } else {
        try reader.skipValue(ofType: type)
      }
    }
    var offsets: [(name: String, offset: Int)] = []
    for _ in 0..<tensorCount {
      let name = try reader.string()
      let dimensions = try reader.integer(UInt32.self)
      try reader.skip(Int(dimensions) * 8)
      _ = try reader.integer(UInt32.self)
      // Checked against the file's length first, so the sums below cannot overflow.
      offsets.append((name, try reader.count()))
    }
    guard alignment > 0 else { throw Malformed() }
    let dataStart = (reader.position + alignment - 1) / alignment * alignment
    offsets.sort { $0.offset < $1.offset }
    var ranges: [String: Range<Int>] = [:]
    for (index, tensor) in offsets.enumerated() {
      let end = index + 1 < offsets.count ? dataStart + offsets[index + 1].offset : reader.length
      let start = dataStart + tensor.offset
      guard start <= end, end <= reader.length else { throw Malformed() }
      ranges[tensor.name] = start..<end
    }
    return ranges
  }
}

/// A bounds-checked little-endian cursor over a GGUF header.
private struct GGUFReader {
  static let uint32: UInt32 = 4
  static let string: UInt32 = 8
  static let array: UInt32 = 9

  let bytes: UnsafeRawBufferPointer
  private(set) var position = 0
  var length: Int { bytes.count }

  init(bytes: UnsafeRawBufferPointer) {
    self.bytes = bytes
  }

  mutating func bytes(_ count: Int) throws -> UnsafeRawBufferPointer.SubSequence {
    guard count >= 0, count <= bytes.count - position else { throw GGUFTensorTable.Malformed() }
    defer { position += count }
    return bytes[position..<position + count]
  }

  mutating func skip(_ count: Int) throws {
    _ = try bytes(count)
  }

  mutating func integer<T: FixedWidthInteger>(_: T.Type) throws -> T {
    let raw = try bytes(MemoryLayout<T>.size)
    return T(littleEndian: raw.loadUnaligned(as: T.self))
  }

  /// A 64-bit count or offset, refused when it could not fit in the file.
  mutating func count() throws -> Int {
    let value = try integer(UInt64.self)
    guard value <= UInt64(bytes.count) else { throw GGUFTensorTable.Malformed() }
    return Int(value)
  }

  mutating func string() throws -> String {
    String(decoding: try bytes(try count()), as: UTF8.self)
  }

  /// Skips one metadata value of GGUF type `type`.
  mutating func skipValue(ofType type: UInt32) throws {
    switch type {
    case Self.string: try skip(try count())
    case Self.array:
      let elementType = try integer(UInt32.self)
      let elements = try count()
      if let size = Self.scalarSize(elementType) {
        guard elements <= (bytes.count - position) / size else { throw GGUFTensorTable.Malformed() }
        try skip(elements * size)
      } else {
        for _ in 0..<elements { try skipValue(ofType: elementType) }
      }
    default:
      guard let size = Self.scalarSize(type) else { throw GGUFTensorTable.Malformed() }
      try skip(size)
    }
  }

  /// Bytes of a scalar GGUF type: u8 i8 u16 i16 u32 i32 f32 bool u64 i64 f64.
  private static func scalarSize(_ type: UInt32) -> Int? {
    switch type {
    case 0, 1, 7: return 1
    case 2, 3: return 2
    case 4, 5, 6: return 4
    case 10, 11, 12: return 8
    default: return nil
    }
  }
}
