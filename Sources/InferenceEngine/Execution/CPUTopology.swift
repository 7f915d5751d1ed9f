import Foundation

/// Facts about the machine's processors that decide how many threads llama.cpp uses.
public enum CPUTopology {
  /// The number of physical cores, counting each core once however many hardware threads it has.
  ///
  /// Matrix work saturates a core's execution units with one thread, so llama.cpp runs fastest
  /// with one thread per physical core; hyper-threads only add contention.
  public static let physicalCores: Int = {
    let root = "/sys/devices/system/cpu"
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
    var cores = Set<String>()
    for entry in entries where entry.hasPrefix("cpu") && entry.dropFirst(3).allSatisfy(\.isNumber) {
      let topology = "\(root)/\(entry)/topology"
      guard
        let package = try? String(contentsOfFile: "\(topology)/physical_package_id", encoding: .utf8),
        let core = try? String(contentsOfFile: "\(topology)/core_id", encoding: .utf8)
      else { continue }
      cores.insert(
        "\(package.trimmingCharacters(in: .whitespacesAndNewlines)):\(core.trimmingCharacters(in: .whitespacesAndNewlines))"
      )
    }
    let available = ProcessInfo.processInfo.activeProcessorCount
    return cores.isEmpty ? available : min(cores.count, available)
  }()
}
