/// The model names of Apple's `fm` on macOS 27: `system` (the on-device model; here the default
/// model) and `pcc` (Private Cloud Compute, which no Linux process can reach).
enum AppleModelName {
  /// What Apple's `fm` says where PCC cannot be used; ours says it everywhere.
  static let pccUnavailable = "PCC inference is not available in this context."

  /// The model name as this `fm` reads it: nil for `system` (the default model).
  /// - Throws: `PCCUnavailable` for `pcc`.
  static func resolve(_ name: String?) throws -> String? {
    switch name {
    case "system": nil
    case "pcc": throw PCCUnavailable()
    default: name
    }
  }

  /// `-m pcc`: fails as Apple's `fm` does where PCC is unavailable.
  struct PCCUnavailable: Error, CustomStringConvertible {
    var description: String { AppleModelName.pccUnavailable }
  }
}
