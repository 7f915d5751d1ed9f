import Foundation
import Synchronization

/// A loopback HTTP server that answers the Hugging Face Hub's routes from files in memory, so
/// the store's real download code is tested (and measured) without the network.
///
/// It serves `GET /api/models/OWNER/REPO/tree/main[/FOLDER][?recursive=true]` (the file list,
/// with the Git LFS `oid`, the sha256, and size of each file) and
/// `GET /OWNER/REPO/resolve/main/PATH` (the file, with `Range` requests answered 206). On
/// demand it redirects file requests as the Hub does, asks for a token, cuts the first file
/// body short, sends slowly, or ignores `Range` (see `Behaviour`). It records every request. Each connection
/// gets a thread and is closed after one response. Call `stop()` when done.
public final class LocalHubServer: Sendable {
  /// What the server does beyond answering plainly.
  public struct Behaviour: Sendable {
    /// A token every request must carry as `Authorization: Bearer`: without one the answer is
    /// 401, with another 403 (a gated or private repository).
    public var requiredToken: String?
    /// The first file body sent stops after this many bytes and the connection is closed, as
    /// a dropped connection would; later bodies are whole.
    public var dropFirstBodyAfter: Int?
    /// Bodies are sent at about this rate, in pieces a twentieth of it, every 50 ms.
    public var bytesPerSecond: Int?
    /// File requests are answered `302 Found` to `/cdn/OWNER/REPO/PATH`, as the Hub sends
    /// LFS files from a CDN.
    public var redirectsFiles: Bool
    /// Whether `?recursive=true` lists folders' contents; a mirror that ignores it lists only
    /// the folder asked for.
    public var listsRecursively: Bool
    /// File requests with a `Range` header are answered with the whole file (200), as a server
    /// without range support does.
    public var ignoresRange: Bool

    public init(
      requiredToken: String? = nil, dropFirstBodyAfter: Int? = nil, bytesPerSecond: Int? = nil,
      redirectsFiles: Bool = false, listsRecursively: Bool = true, ignoresRange: Bool = false
    ) {
      self.requiredToken = requiredToken
      self.dropFirstBodyAfter = dropFirstBodyAfter
      self.bytesPerSecond = bytesPerSecond
      self.redirectsFiles = redirectsFiles
      self.listsRecursively = listsRecursively
      self.ignoresRange = ignoresRange
    }
  }

  /// A request as the server saw it.
  public struct Request: Sendable, Equatable {
    /// The path and query, as sent.
    public var target: String
    /// The `Range` header, if any.
    public var range: String?
    /// The `Authorization` header, if any.
    public var authorization: String?
  }

  /// One file of a repository.
  private struct File: Sendable {
    var contents: Data
    var sha256: String
  }

  public let baseURL: URL
  private let descriptor: Int32
  private let repositories: [String: [String: File]]
  private let behaviour: Behaviour
  private let state = Mutex<(requests: [Request], dropsLeft: Int, bodyBytes: Int)>(([], 0, 0))

  /// The requests served so far, in the order they arrived.
  public var requests: [Request] { state.withLock { $0.requests } }

  /// The bytes of file bodies sent so far, cut-short ones included: what downloads cost.
  public var fileBytesSent: Int { state.withLock { $0.bodyBytes } }

  /// The `Range` headers of the file requests so far (`nil` for a request without one).
  public var fileRanges: [String?] {
    requests.filter { $0.target.contains("/resolve/") || $0.target.hasPrefix("/cdn/") }.map(\.range)
  }

  /// Starts a server for `repositories` (`OWNER/REPO` → path in the repository → contents).
  ///
  /// - Parameters:
  ///   - repositories: The files of each repository.
  ///   - listedSHA256: Hashes to list instead of the real ones (path → sha256), for a file
  ///     whose listed hash its contents do not have.
  ///   - behaviour: What the server does beyond answering plainly.
  public init(
    repositories: [String: [String: Data]], listedSHA256: [String: String] = [:], behaviour: Behaviour = Behaviour()
  ) throws {
    var hashed: [String: [String: File]] = [:]
    for (repository, files) in repositories {
      for (path, contents) in files {
        hashed[repository, default: [:]][path] = File(
          contents: contents, sha256: try listedSHA256[path] ?? Self.sha256(of: contents))
      }
    }
    self.repositories = hashed
    self.behaviour = behaviour
    state.withLock { $0.dropsLeft = behaviour.dropFirstBodyAfter == nil ? 0 : 1 }
    (descriptor, baseURL) = try LoopbackSocket.server(backlog: 64)
    Thread.detachNewThread { [self] in acceptConnections() }
  }

  /// Stops listening; the accepting thread ends and closes the socket (see `CannedHTTPServer.stop()`).
  public func stop() {
    shutdown(descriptor, Int32(SHUT_RDWR))
  }

  /// The sha256 of `data`, lowercase hex, from coreutils' `sha256sum`, as the store checks it.
  public static func sha256(of data: Data) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["sha256sum"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    // Written from another thread: a body larger than the pipe would otherwise block both sides.
    let writer = input.fileHandleForWriting
    let sending = Thread {
      writer.write(data)
      try? writer.close()
    }
    sending.start()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return String(text.prefix(64))
  }

  private func acceptConnections() {
    while true {
      let connection = accept(descriptor, nil, nil)
      guard connection >= 0 else {
        close(descriptor)
        return
      }
      Thread.detachNewThread { [self] in
        answer(connection)
        close(connection)
      }
    }
  }

  private func answer(_ connection: Int32) {
    guard let head = Self.readHead(connection) else { return }
    let lines = head.split(separator: "\r\n").map(String.init)
    let words = lines.first?.split(separator: " ").map(String.init) ?? []
    guard words.count >= 2 else { return sendError(connection, status: 400, "Bad request") }
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    let request = Request(target: words[1], range: headers["range"], authorization: headers["authorization"])
    state.withLock { $0.requests.append(request) }

    let (path, query) = Self.split(target: words[1])
    let components = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
      String($0).removingPercentEncoding ?? String($0)
    }
    if components.first == "cdn", components.count >= 4 {
      return sendFile(
        connection, repository: "\(components[1])/\(components[2])",
        path: components[3...].joined(separator: "/"), range: request.range)
    }
    if let required = behaviour.requiredToken, request.authorization != "Bearer \(required)" {
      return sendError(
        connection, status: request.authorization == nil ? 401 : 403, "Access to this repository is restricted")
    }
    if components.count >= 5, components[0] == "api", components[1] == "models", components[4] == "tree" {
      let repository = "\(components[2])/\(components[3])"
      guard components.count >= 6, components[5] == "main", let files = repositories[repository] else {
        return sendError(connection, status: 404, "Repository not found")
      }
      let folder = components.dropFirst(6).joined(separator: "/")
      let recursive = behaviour.listsRecursively && query.contains("recursive=true")
      send(connection, status: 200, body: Self.listing(files, in: folder, recursive: recursive))
      return
    }
    if components.count >= 5, components[2] == "resolve" {
      let repository = "\(components[0])/\(components[1])"
      let filePath = components[4...].joined(separator: "/")
      guard components[3] == "main", repositories[repository]?[filePath] != nil else {
        return sendError(connection, status: 404, "Entry not found")
      }
      if behaviour.redirectsFiles {
        send(connection, status: 302, headers: ["Location": "/cdn/\(repository)/\(filePath)"], body: Data())
        return
      }
      return sendFile(connection, repository: repository, path: filePath, range: request.range)
    }
    sendError(connection, status: 404, "Not found")
  }

  /// The tree API's answer: the files (with their LFS hash and size) and folders under `folder`.
  private static func listing(_ files: [String: File], in folder: String, recursive: Bool) -> Data {
    let prefix = folder.isEmpty ? "" : folder + "/"
    var entries: [[String: Any]] = []
    var folders: Set<String> = []
    for (path, file) in files.sorted(by: { $0.key < $1.key }) where path.hasPrefix(prefix) {
      let rest = path.dropFirst(prefix.count).split(separator: "/").map(String.init)
      for depth in 1..<rest.count where recursive || depth == 1 {
        folders.insert(prefix + rest[0..<depth].joined(separator: "/"))
      }
      guard recursive || rest.count == 1 else { continue }
      let size = file.contents.count
      entries.append([
        "type": "file", "path": path, "size": size, "oid": String(file.sha256.prefix(40)),
        "lfs": ["oid": file.sha256, "size": size, "pointerSize": 134],
      ])
    }
    entries += folders.sorted().map {
      ["type": "directory", "path": $0, "size": 0, "oid": String(repeating: "0", count: 40)]
    }
    return (try? JSONSerialization.data(withJSONObject: entries)) ?? Data("[]".utf8)
  }

  /// Sends a file, or the part a `Range: bytes=FIRST-[LAST]` header asks for.
  private func sendFile(_ connection: Int32, repository: String, path: String, range: String?) {
    guard let contents = repositories[repository]?[path]?.contents else {
      return sendError(connection, status: 404, "Entry not found")
    }
    let total = contents.count
    var first = 0
    var last = total - 1
    var status = 200
    var headers = ["Accept-Ranges": "bytes", "Content-Type": "application/octet-stream"]
    if let range, range.hasPrefix("bytes="), !behaviour.ignoresRange {
      let bounds = range.dropFirst("bytes=".count).split(separator: "-", omittingEmptySubsequences: false)
      first = Int(bounds[0]) ?? 0
      if bounds.count > 1, let end = Int(bounds[1]) { last = min(end, total - 1) }
      guard first < total else {
        send(connection, status: 416, headers: ["Content-Range": "bytes */\(total)"], body: Data())
        return
      }
      status = 206
      headers["Content-Range"] = "bytes \(first)-\(last)/\(total)"
    }
    let cut: Int? = state.withLock { state in
      guard state.dropsLeft > 0 else { return nil }
      state.dropsLeft -= 1
      return behaviour.dropFirstBodyAfter
    }
    let sent = send(
      connection, status: status, headers: headers, body: contents, range: first..<(last + 1), cutAfter: cut)
    state.withLock { $0.bodyBytes += sent }
  }

  private func sendError(_ connection: Int32, status: Int, _ message: String) {
    let body = (try? JSONSerialization.data(withJSONObject: ["error": message])) ?? Data()
    send(connection, status: status, headers: ["Content-Type": "application/json"], body: body)
  }

  /// Sends a response whose head announces the whole body (the bytes of `body` in `range`, all
  /// of it by default); with `cutAfter`, only that many bytes of it follow before the
  /// connection closes. The bytes go from `body` itself, in pieces, without a copy: the server
  /// of a throughput benchmark must not be its bottleneck.
  /// - Returns: The bytes of the body sent.
  @discardableResult
  private func send(
    _ connection: Int32, status: Int, headers: [String: String] = [:], body: Data, range: Range<Int>? = nil,
    cutAfter: Int? = nil
  ) -> Int {
    let range = range ?? 0..<body.count
    var head = "HTTP/1.1 \(status) Local\r\nConnection: close\r\nContent-Length: \(range.count)\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    guard sendAll(connection, Data((head + "\r\n").utf8)) else { return 0 }
    let length = min(range.count, cutAfter ?? range.count)
    let piece = behaviour.bytesPerSecond.map { max(1, $0 / 20) } ?? (1 << 20)
    return body.withUnsafeBytes { bytes in
      let body = UnsafeRawBufferPointer(rebasing: bytes[range])
      var offset = 0
      while offset < length {
        let end = min(length, offset + piece)
        guard sendAll(connection, UnsafeRawBufferPointer(rebasing: body[offset..<end])) else { return offset }
        offset = end
        if behaviour.bytesPerSecond != nil { Thread.sleep(forTimeInterval: 0.05) }
      }
      return offset
    }
  }

  private func sendAll(_ connection: Int32, _ data: Data) -> Bool {
    data.withUnsafeBytes { sendAll(connection, $0) }
  }

  private func sendAll(_ connection: Int32, _ buffer: UnsafeRawBufferPointer) -> Bool {
    var offset = 0
    while offset < buffer.count {
      let sent = Foundation.send(
        connection, buffer.baseAddress?.advanced(by: offset), buffer.count - offset, Int32(MSG_NOSIGNAL))
      guard sent > 0 else { return false }
      offset += sent
    }
    return true
  }

  private static func split(target: String) -> (path: String, query: String) {
    guard let mark = target.firstIndex(of: "?") else { return (target, "") }
    return (String(target[..<mark]), String(target[target.index(after: mark)...]))
  }

  /// Reads up to the blank line that ends a request's head (these requests have no body).
  private static func readHead(_ connection: Int32) -> String? {
    var data: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 8192)
    while data.count < 65536 {
      let count = recv(connection, &buffer, buffer.count, 0)
      guard count > 0 else { return nil }
      data += buffer[0..<count]
      let text = String(decoding: data, as: UTF8.self)
      if let end = text.range(of: "\r\n\r\n") { return String(text[..<end.lowerBound]) }
    }
    return nil
  }
}
