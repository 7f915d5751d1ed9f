import Foundation

/// A model pulled from the Hugging Face Hub, as `ModelStore.pulledHubModels()` finds it.
public struct PulledHubModel: Sendable, Equatable {
  /// The reference that names it: the repository, revision and the quant its file name carries.
  public let reference: HubReference
  /// The file to load: the only file, or a split model's first part.
  public let path: URL
  /// Every file of the model, the first part first.
  public let files: [URL]
  /// The size of all its files together.
  public let byteCount: Int64
}
