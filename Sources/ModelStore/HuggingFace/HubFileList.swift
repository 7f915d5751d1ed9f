import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Lists a repository's files with the Hub's tree API, `GET /api/models/OWNER/REPO/tree/REVISION`.
///
/// Asks for the whole tree at once (`?recursive=true`, as llama.cpp does), follows the
/// `Link: <…>; rel="next"` pages of a large repository, and lists any folder the answer names
/// without its contents through the path form (`…/tree/REVISION/FOLDER`), for a mirror that
/// ignores `recursive`.
struct HubFileList {
  let settings: HubSettings

  /// The repository's files (folders left out), in the order the Hub lists them.
  ///
  /// - Throws: `ModelStoreError` with `.accessDenied` (HTTP 401 or 403), `.repositoryNotFound`
  ///   (404), or `.fetchFailed` (no connection, another status, an answer that is not a list).
  func files(of reference: HubReference) async throws -> [HubFile] {
    let base = "/api/models/\(reference.repositoryID)/tree/\(HubPath.escaped(reference.revision))"
    var files: [HubFile] = []
    var folders: [String] = []
    var listedFolders: Set<String> = []
    var next: URL? = try settings.url(base + "?recursive=true")
    while let url = next {
      let page = try await fetchPage(url, reference: reference)
      files += page.files
      folders += page.folders
      next = page.next
      if next == nil,
        let folder = folders.first(where: { folder in
          !listedFolders.contains(folder) && !files.contains { $0.path.hasPrefix(folder + "/") }
        })
      {
        listedFolders.insert(folder)
        next = try settings.url(base + "/" + HubPath.escaped(folder) + "?recursive=true")
      }
    }
    return files
  }

  /// One page of the listing: its files and folders, and the next page's address.
  private func fetchPage(_ url: URL, reference: HubReference) async throws -> (
    files: [HubFile], folders: [String], next: URL?
  ) {
    var request = URLRequest(url: url)
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    if let token = settings.token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
    let data: Data
    let response: URLResponse
    do {
      (data, response) = try await URLSession.shared.data(for: request)
    } catch let error as URLError where error.code == .cancelled {
      throw CancellationError()
    } catch {
      throw ModelStoreError(
        .fetchFailed,
        "cannot reach \(settings.endpoint) to list \(reference.repositoryID): \(error.localizedDescription)")
    }
    guard let http = response as? HTTPURLResponse else {
      throw ModelStoreError(.fetchFailed, "no HTTP answer from \(url.absoluteString)")
    }
    guard http.statusCode == 200 else {
      throw HubStatus.error(http.statusCode, reference: reference, settings: settings, url: url)
    }
    guard let entries = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
      throw ModelStoreError(
        .fetchFailed, "the file list of \(reference.repositoryID) from \(url.absoluteString) is not a JSON list")
    }
    var files: [HubFile] = []
    var folders: [String] = []
    for entry in entries {
      guard let path = entry["path"] as? String else { continue }
      switch entry["type"] as? String {
      case "directory":
        folders.append(path)
      case "file":
        let lfs = entry["lfs"] as? [String: Any]
        let size = (lfs?["size"] as? NSNumber ?? entry["size"] as? NSNumber)?.int64Value ?? 0
        files.append(HubFile(path: path, byteCount: size, sha256: (lfs?["oid"] as? String)?.lowercased()))
      default:
        continue
      }
    }
    return (files, folders, Self.nextPage(http.value(forHTTPHeaderField: "Link"), relativeTo: url))
  }

  /// The `rel="next"` address of a `Link` header.
  static func nextPage(_ link: String?, relativeTo base: URL) -> URL? {
    guard let link else { return nil }
    for item in link.split(separator: ",") where item.contains("rel=\"next\"") {
      guard let open = item.firstIndex(of: "<"), let close = item.firstIndex(of: ">"), open < close else { continue }
      return URL(string: String(item[item.index(after: open)..<close]), relativeTo: base)?.absoluteURL
    }
    return nil
  }
}
