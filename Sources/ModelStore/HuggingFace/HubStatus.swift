import Foundation

/// The errors for the Hub's HTTP statuses, worded so the user knows what to do.
enum HubStatus {
  /// The error for an answer with `status` (not 200 or 206) to a request about `reference`.
  ///
  /// 401 and 403 are what the Hub answers for a gated repository whose licence the user has
  /// not accepted, a private one, and (without a token) one that does not exist; 404 is a
  /// repository, revision or file that does not exist.
  static func error(_ status: Int, reference: HubReference, settings: HubSettings, url: URL) -> ModelStoreError {
    switch status {
    case 401, 403:
      let tokenAdvice =
        settings.token == nil
        ? "set HF_TOKEN to an access token that may read it"
        : "the token in HF_TOKEN may not read it"
      return ModelStoreError(
        .accessDenied,
        "\(reference.repositoryID) is gated or private (HTTP \(status) from \(settings.endpoint)): \(tokenAdvice), "
          + "and accept the model's licence at \(settings.endpoint)/\(reference.repositoryID)",
        modelName: reference.description)
    case 404:
      return ModelStoreError(
        .repositoryNotFound,
        "\(settings.endpoint) has no \(url.path.contains("/resolve/") ? "file \(url.path)" : "repository \(reference.repositoryID) at revision \(reference.revision)") (HTTP 404)",
        modelName: reference.description)
    default:
      return ModelStoreError(
        .fetchFailed, "HTTP \(status) from \(url.absoluteString)", modelName: reference.description)
    }
  }
}
