/// A result whose value and error can both be told to the model, such as a tool's output that
/// reports a failure in words rather than by throwing.
///
/// Matches FoundationModels `extension Result: PromptRepresentable` (26.4): the success's or the
/// failure's prompt.
extension Result: PromptRepresentable where Success: PromptRepresentable, Failure: PromptRepresentable {
  public var promptRepresentation: Prompt {
    switch self {
    case .success(let value): value.promptRepresentation
    case .failure(let error): error.promptRepresentation
    }
  }
}
