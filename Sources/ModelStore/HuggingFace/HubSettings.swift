import Foundation

/// How the store reaches the Hugging Face Hub, read from the variables `huggingface_hub` and
/// llama.cpp read: `HF_ENDPOINT`, `HF_TOKEN` and `HF_HUB_OFFLINE`.
public struct HubSettings: Sendable, Equatable {
  /// The public Hub's address, the endpoint unless `HF_ENDPOINT` names a mirror.
  public static let publicEndpoint = "https://huggingface.co"

  /// The Hub's address without a trailing slash, such as `https://huggingface.co`.
  public var endpoint: String
  /// The access token sent as `Authorization: Bearer`, for gated and private repositories.
  public var token: String?
  /// Whether the network is off limits: only what was pulled before is used.
  public var offline: Bool

  /// Creates settings from their values.
  public init(endpoint: String = publicEndpoint, token: String? = nil, offline: Bool = false) {
    self.endpoint = endpoint.hasSuffix("/") ? String(endpoint.dropLast()) : endpoint
    self.token = token
    self.offline = offline
  }

  /// Reads `HF_ENDPOINT` (the public Hub when unset or empty), `HF_TOKEN` (ignored when empty)
  /// and `HF_HUB_OFFLINE` (`1`, `true`, `yes` or `on` turn it on, as `huggingface_hub` reads it).
  public init(environment: [String: String]) {
    self.init(
      endpoint: environment["HF_ENDPOINT"].flatMap { $0.isEmpty ? nil : $0 } ?? Self.publicEndpoint,
      token: environment["HF_TOKEN"].flatMap { $0.isEmpty ? nil : $0 },
      offline: ["1", "true", "yes", "on"].contains((environment["HF_HUB_OFFLINE"] ?? "").lowercased()))
  }

  /// `endpoint` followed by `path` (which starts with `/`).
  ///
  /// - Throws: `ModelStoreError(.fetchFailed)` when the two do not make a URL (a malformed
  ///   `HF_ENDPOINT`).
  func url(_ path: String) throws -> URL {
    guard let url = URL(string: endpoint + path), url.scheme != nil, url.host != nil else {
      throw ModelStoreError(.fetchFailed, "HF_ENDPOINT '\(endpoint)' and '\(path)' do not make a URL")
    }
    return url
  }
}
