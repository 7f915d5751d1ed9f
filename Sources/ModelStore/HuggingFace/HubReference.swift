/// A model on the Hugging Face Hub as a user names it: `hf:OWNER/REPO[@REVISION][:QUANT]`.
///
/// The form is llama.cpp's `-hf OWNER/REPO[:QUANT]` with an `hf:` prefix, so a reference can
/// stand wherever a catalogue name or a path does without being mistaken for either. QUANT
/// (such as `Q4_K_M`) chooses the GGUF file the way llama.cpp does (see `GGUFFileChoice`);
/// without it the choice is llama.cpp's default.
public struct HubReference: Sendable, Hashable, CustomStringConvertible {
  /// The prefix that marks a Hub reference.
  public static let prefix = "hf:"

  /// The repository's owner (user or organisation).
  public let owner: String
  /// The repository's name.
  public let repository: String
  /// The branch, tag or commit to read; `main` unless the reference names one.
  public let revision: String
  /// The quantisation asked for, as typed; `nil` for llama.cpp's default choice.
  public let quant: String?

  /// Creates a reference from its parts.
  public init(owner: String, repository: String, revision: String = "main", quant: String? = nil) {
    self.owner = owner
    self.repository = repository
    self.revision = revision
    self.quant = quant
  }

  /// Reads `hf:OWNER/REPO[@REVISION][:QUANT]`.
  ///
  /// - Parameter text: What the user typed.
  /// - Returns: `nil` when `text` does not start with `hf:` (it is a catalogue name or a path).
  /// - Throws: `ModelStoreError(.unknownModel)` when it starts with `hf:` but is not of the form.
  public static func parse(_ text: String) throws -> HubReference? {
    guard text.hasPrefix(prefix) else { return nil }
    let body = text.dropFirst(prefix.count)
    let pieces = body.split(separator: ":", omittingEmptySubsequences: false)
    let location = pieces[0].split(separator: "@", omittingEmptySubsequences: false)
    let names = location[0].split(separator: "/", omittingEmptySubsequences: false)
    let quant = pieces.count == 2 ? String(pieces[1]) : nil
    let revision = location.count == 2 ? String(location[1]) : "main"
    guard pieces.count <= 2, location.count <= 2, names.count == 2,
      names.allSatisfy(isRepositoryName), isRevision(revision), quant.map(isQuant) ?? true
    else {
      throw ModelStoreError(
        .unknownModel, "'\(text)' is not a Hugging Face reference of the form hf:OWNER/REPO[@REVISION][:QUANT]",
        modelName: text)
    }
    return HubReference(owner: String(names[0]), repository: String(names[1]), revision: revision, quant: quant)
  }

  /// `OWNER/REPO`, as the Hub's URLs spell it.
  public var repositoryID: String { "\(owner)/\(repository)" }

  /// The reference as it is typed, `hf:OWNER/REPO[@REVISION][:QUANT]`; `@main` is left out.
  public var description: String {
    let revisionText = revision == "main" ? "" : "@\(revision)"
    return "\(Self.prefix)\(repositoryID)\(revisionText)\(quant.map { ":\($0)" } ?? "")"
  }

  /// The same repository and revision with another quantisation.
  func withQuant(_ quant: String?) -> HubReference {
    HubReference(owner: owner, repository: repository, revision: revision, quant: quant)
  }

  /// The Hub's rule for owner and repository names: letters, digits, `-`, `_` and `.`, not
  /// starting with a dot (which also keeps `..` out of the store's paths).
  private static func isRepositoryName(_ name: Substring) -> Bool {
    !name.isEmpty && !name.hasPrefix(".")
      && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
  }

  /// A branch, tag or commit: no path tricks, since it becomes a folder of the store.
  private static func isRevision(_ revision: String) -> Bool {
    !revision.isEmpty && !revision.hasPrefix(".") && !revision.contains("/") && !revision.contains("\\")
      && revision.allSatisfy { $0.isASCII && !$0.isWhitespace }
  }

  /// A quantisation name such as `Q4_K_M`, `q8_0`, `IQ2_XXS`, `BF16`.
  private static func isQuant(_ quant: String) -> Bool {
    !quant.isEmpty && quant.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
  }
}
