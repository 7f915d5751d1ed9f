import Foundation

/// The memory-mapped view of a model file in this process.
///
/// llama.cpp copies many weights into a repacked layout at load time (about half of Qwen 1.5B's
/// file). Their mapped pages are never read again, but they stay in the process's resident set:
/// first because the copy read them, later because the kernel maps a whole cached folio around
/// every page fault (fault-around), so pages next to the small tensors still read from the mapping
/// (norms, biases) come back. Dropping them with `madvise(MADV_DONTNEED)` costs nothing: on a
/// read-only file mapping a later read refaults the same bytes from the page cache.
struct MappedWeights: Sendable {
  /// One mapping of the file: its addresses and the file offset at `start`.
  struct Mapping: Sendable {
    var start: UInt
    var end: UInt
    var fileOffset: Int
  }

  let mappings: [Mapping]

  /// The mappings of the file at `path`, from `/proc/self/maps`; none when it is not mapped.
  init(path: String) {
    let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    // procfs files report size 0; read to the end rather than by size.
    let maps =
      (try? FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/maps")).readToEnd())
      .map { String(decoding: $0, as: UTF8.self) } ?? ""
    mappings = maps.split(separator: "\n").compactMap { line in
      // "start-end perms offset dev inode path"
      guard line.hasSuffix(target) else { return nil }
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      let range = fields.first?.split(separator: "-") ?? []
      guard fields.count >= 3, range.count == 2, let start = UInt(range[0], radix: 16),
        let end = UInt(range[1], radix: 16), let offset = Int(fields[2], radix: 16)
      else { return nil }
      return Mapping(start: start, end: end, fileOffset: offset)
    }
  }

  /// Drops every resident page of the mapped file.
  func releaseAll() {
    for mapping in mappings { advise(mapping.start..<mapping.end) }
  }

  /// Drops the resident pages that lie wholly inside `fileRanges` (byte ranges of the file).
  ///
  /// Pages shared with a neighbouring range are kept: the neighbour may be in use.
  func release(fileRanges: [Range<Int>]) {
    let page = UInt(getpagesize())
    for mapping in mappings {
      let mappedFile = mapping.fileOffset..<(mapping.fileOffset + Int(mapping.end - mapping.start))
      for range in fileRanges where range.overlaps(mappedFile) {
        let clamped = range.clamped(to: mappedFile)
        let start = mapping.start + UInt(clamped.lowerBound - mapping.fileOffset)
        let end = mapping.start + UInt(clamped.upperBound - mapping.fileOffset)
        // Inward to whole pages.
        let first = (start + page - 1) / page * page
        let last = end / page * page
        if first < last { advise(first..<last) }
      }
    }
  }

  private func advise(_ addresses: Range<UInt>) {
    guard let address = UnsafeMutableRawPointer(bitPattern: addresses.lowerBound) else { return }
    // madvise(MADV_DONTNEED) on a read-only file mapping: later reads refault the same bytes.
    _ = madvise(address, Int(addresses.upperBound - addresses.lowerBound), MADV_DONTNEED)
  }
}
