/// A tool with its type erased: arguments as generated content, output as a prompt.
///
/// Matches FoundationModels 27 `AnyTool`. Useful where tools of different types sit in one
/// collection that needs a concrete element type.
public struct AnyTool: Tool {
  public typealias Arguments = GeneratedContent
  public typealias Output = Prompt

  public let name: String
  public let description: String
  public let parameters: GenerationSchema
  public let includesSchemaInInstructions: Bool
  private let body: @Sendable (GeneratedContent) async throws -> Prompt

  /// Wraps `tool`.
  public init(_ tool: some Tool) {
    name = tool.name
    description = tool.description
    parameters = tool.parameters
    includesSchemaInInstructions = tool.includesSchemaInInstructions
    body = { content in try await Self.call(tool, with: content) }
  }

  /// Converts the arguments to the wrapped tool's type, calls it, and returns its output as a
  /// prompt.
  public nonisolated(nonsending) func call(arguments: GeneratedContent) async throws -> Prompt {
    try await body(arguments)
  }

  private static func call<T: Tool>(_ tool: T, with content: GeneratedContent) async throws -> Prompt {
    try await tool.call(arguments: try T.Arguments(content)).promptRepresentation
  }
}
