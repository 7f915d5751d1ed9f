/// Chooses the GGUF file (and, for a split model, all its parts) that a reference names, by
/// llama.cpp's rule for `-hf OWNER/REPO[:QUANT]` (`find_best_model` in common/download.cpp).
///
/// With a quant, the first model file whose path contains the quant followed by `.` or `-`,
/// case-insensitively, wins. Without one, `Q4_K_M` is tried, then `Q8_0`, then the first model
/// file of the list. Companion files (`mmproj` and the like) are never chosen, and of a split
/// model only the first part is a candidate; the choice then takes in every part.
enum GGUFFileChoice {
  /// The quants tried, in order, when the reference names none.
  static let defaultQuants = ["Q4_K_M", "Q8_0"]

  /// The files to fetch for `reference`, the part to load first.
  ///
  /// - Parameters:
  ///   - reference: The repository and quant asked for.
  ///   - files: The repository's files, in the order the Hub lists them.
  /// - Returns: The model's files, part 1 first; one file for a model that is not split.
  /// - Throws: `ModelStoreError(.noMatchingFile)` when no file matches, naming those there are;
  ///   or when a split model's parts are not all listed.
  static func files(for reference: HubReference, in files: [HubFile]) throws -> [HubFile] {
    let candidates = files.filter { $0.name.isModel && $0.name.isFirstPart }
    let quants = reference.quant.map { [$0] } ?? defaultQuants
    var chosen: HubFile?
    for quant in quants {
      let marks = [".", "-"].map { (quant + $0).lowercased() }
      chosen = candidates.first { file in marks.contains { file.path.lowercased().contains($0) } }
      if chosen != nil { break }
    }
    if reference.quant == nil, chosen == nil { chosen = candidates.first }
    guard let chosen else { throw noMatch(for: reference, candidates: candidates) }
    return try parts(of: chosen, in: files, reference: reference)
  }

  /// All parts of the model whose first part is `first`, in order.
  private static func parts(of first: HubFile, in files: [HubFile], reference: HubReference) throws -> [HubFile] {
    let name = first.name
    guard name.count > 1 else { return [first] }
    let parts = (1...name.count).map { index in
      files.first { $0.name.prefix == name.prefix && $0.name.count == name.count && $0.name.index == index }
    }
    let found = parts.compactMap { $0 }
    guard found.count == name.count else {
      throw ModelStoreError(
        .noMatchingFile,
        "\(reference): \(first.path) is part 1 of \(name.count), but only \(found.count) parts are there",
        modelName: reference.description)
    }
    return found
  }

  private static func noMatch(for reference: HubReference, candidates: [HubFile]) -> ModelStoreError {
    let available = candidates.map(\.path).joined(separator: ", ")
    let message =
      if let quant = reference.quant {
        "no GGUF file in \(reference.repositoryID) matches quant \(quant) (available: "
          + "\(available.isEmpty ? "none" : available))"
      } else {
        "\(reference.repositoryID) has no GGUF model file"
      }
    return ModelStoreError(.noMatchingFile, message, modelName: reference.description)
  }
}
