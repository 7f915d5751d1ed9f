import Foundation
import JSON
import Synchronization

/// The responses `fm serve` keeps (`store`, true by default as OpenAI's): for
/// `previous_response_id`, `GET /v1/responses/{id}`, its `input_items` and `DELETE`.
///
/// Bounded by count and bytes (`Limits`): storing past either drops the oldest responses first,
/// and a dropped id is then unknown (404), as a deleted one. With a directory
/// (`fm serve --store-dir DIR`) each response is also a file `DIR/ID.json`, written atomically
/// (to a temporary file, then renamed), and the store starts with what the directory holds; a
/// file that cannot be read is reported (`problems`) and skipped, never fatal, and left as it is.
public final class ResponseStore: Sendable {
  public struct Limits: Sendable {
    /// The most responses kept.
    public var count: Int
    /// The most bytes kept: each response counts its stored JSON (its conversation included).
    public var bytes: Int

    public init(count: Int = 1_000, bytes: Int = 256 << 20) {
      self.count = count
      self.bytes = bytes
    }
  }

  /// One stored response.
  struct Stored: Sendable {
    /// The response object, as `GET /v1/responses/{id}` returns it.
    var response: JSONValue
    /// The request's own input items.
    var inputItems: [JSONValue]
    /// The whole conversation: the items of the responses it continues, its input, its output.
    var conversation: [JSONValue]

    var id: String { response["id"]?.stringValue ?? "" }

    var json: JSONValue {
      .object([
        member("response", response), member("input_items", .array(inputItems)),
        member("conversation", .array(conversation)),
      ])
    }

    init(response: JSONValue, inputItems: [JSONValue], conversation: [JSONValue]) {
      self.response = response
      self.inputItems = inputItems
      self.conversation = conversation
    }

    init?(json: JSONValue) {
      guard case .object? = json["response"], json["response"]?["id"]?.stringValue != nil,
        case .array(let input)? = json["input_items"], case .array(let conversation)? = json["conversation"]
      else { return nil }
      self.init(response: json["response"] ?? .null, inputItems: input, conversation: conversation)
    }
  }

  private struct State {
    /// Ids, oldest first.
    var order: [String] = []
    var entries: [String: (stored: Stored, bytes: Int)] = [:]
    var bytes = 0
  }

  let limits: Limits
  let directory: URL?
  private let state = Mutex(State())
  /// What could not be read from the directory at start: one line per file.
  public let problems: [String]

  /// A store in memory only.
  public convenience init(limits: Limits = Limits()) {
    self.init(directory: nil, limits: limits, loaded: [], problems: [])
  }

  /// A store also in `directory` (created when missing), starting with the responses it holds,
  /// oldest first by their `created_at`.
  /// - Throws: when the directory cannot be created or listed.
  public convenience init(directory: URL, limits: Limits = Limits()) throws {
    var problems: [String] = []
    var loaded: [(stored: Stored, bytes: Int, created: Double)] = []
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
      .filter { $0.pathExtension == "json" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
    for file in files {
      do {
        let data = try Data(contentsOf: file)
        guard let stored = Stored(json: try JSONValue(parsing: data)), stored.id + ".json" == file.lastPathComponent
        else { throw CocoaError(.fileReadCorruptFile) }
        let created = stored.response["created_at"].flatMap { Double($0.compactText) } ?? 0
        loaded.append((stored, data.count, created))
      } catch {
        problems.append("\(file.path): not a stored response, skipped (\(error))")
      }
    }
    self.init(
      directory: directory, limits: limits,
      loaded: loaded.sorted { $0.created < $1.created }.map { ($0.stored, $0.bytes) }, problems: problems)
  }

  private init(directory: URL?, limits: Limits, loaded: [(stored: Stored, bytes: Int)], problems: [String]) {
    self.limits = limits
    self.directory = directory
    self.problems = problems
    for entry in loaded { insert(entry.stored, bytes: entry.bytes) }
  }

  /// The stored response `id`, if it is kept.
  func get(_ id: String) -> Stored? {
    state.withLock { $0.entries[id]?.stored }
  }

  /// Keeps `stored`, dropping the oldest responses past the limits.
  /// - Throws: when its file cannot be written (it is then not kept).
  func put(_ stored: Stored) throws {
    let data = Data(stored.json.compactText.utf8)
    if let directory { try data.write(to: file(stored.id, in: directory), options: .atomic) }
    insert(stored, bytes: data.count)
  }

  /// Forgets `id`; false when it was not kept.
  func delete(_ id: String) -> Bool {
    let removed = state.withLock { state in
      guard let entry = state.entries.removeValue(forKey: id) else { return false }
      state.order.removeAll { $0 == id }
      state.bytes -= entry.bytes
      return true
    }
    if removed, let directory { try? FileManager.default.removeItem(at: file(id, in: directory)) }
    return removed
  }

  /// Responses kept now.
  var count: Int { state.withLock { $0.order.count } }

  private func insert(_ stored: Stored, bytes: Int) {
    let dropped = state.withLock { state -> [String] in
      if let old = state.entries[stored.id] {
        state.bytes -= old.bytes
        state.order.removeAll { $0 == stored.id }
      }
      state.entries[stored.id] = (stored, bytes)
      state.order.append(stored.id)
      state.bytes += bytes
      var dropped: [String] = []
      while state.order.count > limits.count || (state.bytes > limits.bytes && state.order.count > 1) {
        let oldest = state.order.removeFirst()
        state.bytes -= state.entries.removeValue(forKey: oldest)?.bytes ?? 0
        dropped.append(oldest)
      }
      return dropped
    }
    if let directory {
      for id in dropped { try? FileManager.default.removeItem(at: file(id, in: directory)) }
    }
  }

  /// The file of response `id`: ids are the server's own (`resp_` and hex digits), never a path.
  private func file(_ id: String, in directory: URL) -> URL {
    directory.appendingPathComponent(id + ".json")
  }
}
