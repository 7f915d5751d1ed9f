import Foundation

/// SHA-256 (FIPS 180-4), fed a piece at a time: how a download is hashed as it arrives.
///
/// Foundation on Linux has no SHA-256 and the project takes no outside packages. The eight
/// rounds of each step are written out so the working variables stay in registers rather than
/// being shuffled once a round.
struct SHA256 {
  private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
    0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
  )
  /// Bytes short of a whole 64-byte block, kept for the next `update`.
  private var pending: [UInt8] = []
  private var byteCount: UInt64 = 0

  /// Adds `bytes` to the message.
  mutating func update(_ bytes: UnsafeRawBufferPointer) {
    byteCount &+= UInt64(bytes.count)
    var rest = bytes
    if !pending.isEmpty {
      let taken = min(64 - pending.count, rest.count)
      pending += rest.prefix(taken)
      rest = UnsafeRawBufferPointer(rebasing: rest.dropFirst(taken))
      guard pending.count == 64 else { return }
      pending.withUnsafeBytes { compress($0) }
      pending.removeAll(keepingCapacity: true)
    }
    let whole = rest.count & ~63
    if whole > 0 { compress(UnsafeRawBufferPointer(rebasing: rest.prefix(whole))) }
    pending += rest.dropFirst(whole)
  }

  /// Adds `data` to the message.
  mutating func update(_ data: Data) {
    data.withUnsafeBytes { update($0) }
  }

  /// The digest of the message so far, as 64 lowercase hex digits.
  func hexDigest() -> String {
    var last = self
    let bits = byteCount &* 8
    var tail = pending
    tail.append(0x80)
    tail += [UInt8](repeating: 0, count: (119 - pending.count) % 64)
    tail += (0..<8).reversed().map { UInt8(truncatingIfNeeded: bits >> (8 * UInt64($0))) }
    tail.withUnsafeBytes { last.compress($0) }
    let words = [
      last.state.0, last.state.1, last.state.2, last.state.3, last.state.4, last.state.5, last.state.6, last.state.7,
    ]
    return words.map { word in
      let hex = String(word, radix: 16)
      return String(repeating: "0", count: 8 - hex.count) + hex
    }.joined()
  }

  private static func rotate(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }

  /// One round: `d` and `h` are the two working variables a round changes; the caller turns
  /// the roles of the eight by one each round.
  @inline(__always)
  private static func round(
    _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32, _ e: UInt32, _ f: UInt32, _ g: UInt32,
    _ h: inout UInt32, _ constantAndWord: UInt32
  ) {
    let sum1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
    let choice = g ^ (e & (f ^ g))
    let t1 = h &+ sum1 &+ choice &+ constantAndWord
    let sum0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
    let majority = (a & b) | (c & (a | b))
    d &+= t1
    h = t1 &+ sum0 &+ majority
  }

  /// Runs the compression function over `blocks`, a whole number of 64-byte blocks.
  private mutating func compress(_ blocks: UnsafeRawBufferPointer) {
    var (h0, h1, h2, h3, h4, h5, h6, h7) = state
    withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
      Self.constants.withUnsafeBufferPointer { k in
        for offset in stride(from: 0, to: blocks.count, by: 64) {
          for i in 0..<16 {
            w[i] = UInt32(bigEndian: blocks.loadUnaligned(fromByteOffset: offset + 4 * i, as: UInt32.self))
          }
          for i in 16..<64 {
            let sigma0 = Self.rotate(w[i - 15], 7) ^ Self.rotate(w[i - 15], 18) ^ (w[i - 15] >> 3)
            let sigma1 = Self.rotate(w[i - 2], 17) ^ Self.rotate(w[i - 2], 19) ^ (w[i - 2] >> 10)
            w[i] = w[i - 16] &+ sigma0 &+ w[i - 7] &+ sigma1
          }
          var (a, b, c, d, e, f, g, h) = (h0, h1, h2, h3, h4, h5, h6, h7)
          for i in stride(from: 0, to: 64, by: 8) {
            Self.round(a, b, c, &d, e, f, g, &h, k[i + 0] &+ w[i + 0])
            Self.round(h, a, b, &c, d, e, f, &g, k[i + 1] &+ w[i + 1])
            Self.round(g, h, a, &b, c, d, e, &f, k[i + 2] &+ w[i + 2])
            Self.round(f, g, h, &a, b, c, d, &e, k[i + 3] &+ w[i + 3])
            Self.round(e, f, g, &h, a, b, c, &d, k[i + 4] &+ w[i + 4])
            Self.round(d, e, f, &g, h, a, b, &c, k[i + 5] &+ w[i + 5])
            Self.round(c, d, e, &f, g, h, a, &b, k[i + 6] &+ w[i + 6])
            Self.round(b, c, d, &e, f, g, h, &a, k[i + 7] &+ w[i + 7])
          }
          h0 &+= a
          h1 &+= b
          h2 &+= c
          h3 &+= d
          h4 &+= e
          h5 &+= f
          h6 &+= g
          h7 &+= h
        }
      }
    }
    state = (h0, h1, h2, h3, h4, h5, h6, h7)
  }

  /// The first 32 bits of the fractional parts of the cube roots of the first 64 primes.
  private static let constants: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
    0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
    0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
    0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
    0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
    0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
    0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
  ]
}
