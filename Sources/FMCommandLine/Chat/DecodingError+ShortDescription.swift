import Foundation

extension DecodingError {
  /// The reason and the JSON path, in one line.
  var shortDescription: String {
    switch self {
    case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context),
      .valueNotFound(_, let context):
      let path = context.codingPath.map(\.stringValue).joined(separator: ".")
      return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
    @unknown default:
      return "\(self)"
    }
  }
}
