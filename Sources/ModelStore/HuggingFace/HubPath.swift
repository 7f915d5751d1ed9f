import Foundation

/// Percent-encoding for the pieces of a Hub URL that come from a repository (file paths,
/// revisions), so a space or `#` in a name stays part of the path.
enum HubPath {
  /// `text` with everything outside URL path characters escaped; `/` stays a separator.
  static func escaped(_ text: String) -> String {
    var allowed = CharacterSet.urlPathAllowed
    allowed.remove(charactersIn: "?#;")
    return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
  }
}
