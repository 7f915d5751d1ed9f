import Foundation

/// glibc's `malloc_trim` (declared in malloc.h, which the Glibc module does not export).
@_silgen_name("malloc_trim") private func mallocTrim(_ pad: Int) -> Int32

/// Reads the process's memory figures from /proc.
enum ProcessMemory {
  /// VmRSS: every resident page of the process.
  static func residentBytes() -> Int {
    for line in lines(of: "/proc/self/status") where line.hasPrefix("VmRSS:") {
      return kilobytes(line) * 1024
    }
    return 0
  }

  /// VmRSS after the allocator has returned its free memory to the system, so that what is
  /// left is memory in use, not the free space that malloc's per-thread arenas keep.
  static func residentBytesInUse() -> Int {
    _ = mallocTrim(0)
    return residentBytes()
  }

  /// Resident bytes of the mappings of the file at `path`.
  static func residentBytes(ofMappedFile path: String) -> Int {
    let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    var inTarget = false
    var total = 0
    for line in lines(of: "/proc/self/smaps") {
      // A mapping's header starts with its address range ("start-end perms offset dev inode path").
      if let first = line.first, first.isHexDigit, line.split(separator: " ").first?.contains("-") == true {
        inTarget = line.hasSuffix(target)
      } else if inTarget, line.hasPrefix("Rss:") {
        total += kilobytes(line) * 1024
      }
    }
    return total
  }

  /// procfs files report size 0, so they are read to the end rather than by size.
  private static func lines(of path: String) -> [Substring] {
    guard let data = try? FileHandle(forReadingFrom: URL(fileURLWithPath: path)).readToEnd() else { return [] }
    return String(decoding: data, as: UTF8.self).split(separator: "\n")
  }

  /// The number in a "Key:   1234 kB" line.
  private static func kilobytes(_ line: Substring) -> Int {
    line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) } ?? 0
  }
}
