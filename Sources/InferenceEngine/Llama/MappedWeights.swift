import Foundation

/// The memory-mapped view of a model file in this process.
enum MappedWeights {
  /// Drops this process's resident pages of the mapped model file.
  ///
  /// llama.cpp copies many weights into a repacked layout at load time (about 600 MB of the
  /// 1.1 GB Qwen 1.5B file). Reading them for the copy leaves their mapped pages resident, so
  /// without this the process would hold those weights twice. The pages of weights still used
  /// from the mapping fault back in from the page cache on first use; the kernel keeps them
  /// cached either way, so nothing is read from disk again.
  static func releaseResidentPages(of path: String) {
    guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else { return }
    let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    for line in maps.split(separator: "\n") where line.hasSuffix(target) {
      // "start-end perms offset dev inode path"
      let range = line.split(separator: " ", maxSplits: 1).first?.split(separator: "-") ?? []
      guard range.count == 2, let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16),
        let address = UnsafeMutableRawPointer(bitPattern: start)
      else { continue }
      // madvise(MADV_DONTNEED) on a read-only file mapping: later reads refault the same bytes.
      _ = madvise(address, Int(end - start), MADV_DONTNEED)
    }
  }
}
