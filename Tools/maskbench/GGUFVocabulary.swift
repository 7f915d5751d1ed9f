import Foundation
import GuidedDecoding

/// Reads the token list of a GGUF file (llama.cpp's format) into a `Vocabulary`, so P6 can
/// run on a real tokenizer vocabulary, e.g. llama.cpp's `models/ggml-vocab-qwen2.gguf`.
///
/// Only the metadata is read. Byte-level BPE tokens (GPT-2 style) are mapped back to bytes;
/// control and user-defined tokens are special; `tokenizer.ggml.eos_token_id` ends generation.
enum GGUFVocabulary {
  struct FormatError: Error, CustomStringConvertible {
    var description: String
  }

  static func load(path: String) throws -> Vocabulary {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw FormatError(description: "cannot read \(path)")
    }
    var reader = Reader(bytes: [UInt8](data))
    guard reader.bytes.count > 24, reader.bytes[0..<4] == [0x47, 0x47, 0x55, 0x46] else {
      throw FormatError(description: "not a GGUF file")
    }
    reader.position = 4
    _ = try reader.u32()  // version
    _ = try reader.u64()  // tensor count
    let kvCount = try reader.u64()
    var tokens: [String] = []
    var types: [Int64] = []
    var eos: Int?
    for _ in 0..<kvCount {
      let key = try reader.string()
      let type = try reader.u32()
      switch key {
      case "tokenizer.ggml.tokens": tokens = try reader.array().compactMap { $0 as? String }
      case "tokenizer.ggml.token_type": types = try reader.array().compactMap { $0 as? Int64 }
      case "tokenizer.ggml.eos_token_id": eos = (try reader.value(type: type) as? Int64).map(Int.init)
      default: _ = try reader.value(type: type)
      }
    }
    let decode = byteDecoder()
    let bytes = tokens.map { token in token.unicodeScalars.map { decode[$0.value] ?? 0x3F } }
    var special = Set<Int>()
    for (i, t) in types.enumerated() where t != 1 && t != 6 { special.insert(i) }
    return Vocabulary(tokens: bytes, specialTokens: special, endOfSequenceTokens: eos.map { [$0] } ?? [])
  }

  /// GPT-2's byte ↔ printable-character table, inverted.
  private static func byteDecoder() -> [UInt32: UInt8] {
    var printable = Array(33...126) + Array(161...172) + Array(174...255)
    var chars = printable.map { UInt32($0) }
    var n: UInt32 = 0
    for b in 0..<256 where !printable.contains(b) {
      printable.append(b)
      chars.append(256 + n)
      n += 1
    }
    var table: [UInt32: UInt8] = [:]
    for (b, c) in zip(printable, chars) { table[c] = UInt8(b) }
    return table
  }

  private struct Reader {
    let bytes: [UInt8]
    var position = 0

    mutating func take(_ n: Int) throws -> ArraySlice<UInt8> {
      guard position + n <= bytes.count else { throw FormatError(description: "truncated") }
      defer { position += n }
      return bytes[position..<position + n]
    }

    mutating func integer(_ size: Int) throws -> UInt64 {
      try take(size).reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    mutating func u32() throws -> UInt32 { UInt32(try integer(4)) }
    mutating func u64() throws -> UInt64 { try integer(8) }

    mutating func string() throws -> String {
      let length = Int(try u64())
      return String(decoding: try take(length), as: UTF8.self)
    }

    mutating func array() throws -> [Any] {
      let type = try u32()
      let count = try u64()
      var values: [Any] = []
      values.reserveCapacity(Int(count))
      for _ in 0..<count { values.append(try value(type: type)) }
      return values
    }

    /// Integers come back as `Int64`, strings as `String`; other values are skipped.
    mutating func value(type: UInt32) throws -> Any {
      switch type {
      case 0, 1, 7: return Int64(try integer(1))
      case 2, 3: return Int64(try integer(2))
      case 4: return Int64(try integer(4))
      case 5: return Int64(Int32(truncatingIfNeeded: try integer(4)))
      case 6: _ = try take(4); return 0.0
      case 8: return try string()
      case 9: return try array()
      case 10, 11: return Int64(truncatingIfNeeded: try integer(8))
      case 12: _ = try take(8); return 0.0
      default: throw FormatError(description: "unknown value type \(type)")
      }
    }
  }
}
