import ModelStore

extension ModelStoreError {
  /// The message `fm` prints for this error: what the store found, and the `fm` command that
  /// fixes it.
  ///
  /// A model that is missing or unknown reads word for word as FoundationModels words it
  /// (`ModelSource`), since `fm respond`, `fm generate` and `fm menu` print the library's message.
  var messageWithAdvice: String {
    guard let modelName else { return message }
    switch code {
    case .modelNotDownloaded:
      return "model '\(modelName)' is not downloaded yet; fetch it with: fm models pull \(modelName)"
        + "  (or, in a package that uses this one: swift package --allow-network-connections all setup \(modelName))"
    case .unknownModel:
      let names = ModelCatalog.all.map(\.name).joined(separator: ", ")
      return "unknown model '\(modelName)': use one of \(names) (fetch with: fm models pull NAME), "
        + "a Hugging Face model hf:OWNER/REPO[:QUANT] or a path to a .gguf file"
    case .checksumMismatch:
      return "\(message); try again with: fm models pull \(modelName)"
    default:
      return message
    }
  }
}
