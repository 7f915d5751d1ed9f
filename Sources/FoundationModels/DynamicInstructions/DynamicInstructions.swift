/// A declarative description of a session's instructions and tools, evaluated again before
/// every model invocation.
///
/// Matches FoundationModels 27 `DynamicInstructions`. Like a SwiftUI view, a type describes
/// its content in ``body`` with ``DynamicInstructionsBuilder``: `Instructions` values, tools,
/// arrays of tools, `if`/`else`, and ``ForEach``. The session walks the tree before each model
/// invocation (each round of a tool loop too), so what a body reads — session properties, or any
/// state the type captures — decides the instructions and the enabled tools of that invocation.
///
/// The framework's own building blocks (``TupleDynamicInstructions``,
/// ``ConditionalDynamicInstructions``, …) have `body: Never`; the session evaluates them
/// directly, and reading their `body` traps.
@_typeEraser(AnyDynamicInstructions)
public protocol DynamicInstructions {
  /// The type of the content this value is made of.
  associatedtype Body: DynamicInstructions

  /// The content: instructions, tools and other dynamic instructions.
  @DynamicInstructionsBuilder var body: Body { get }
}

extension DynamicInstructions {
  /// Matches FoundationModels 27 `DynamicInstructions.ForEach`.
  public typealias ForEach = _DynamicInstructionsForEach
}

extension DynamicInstructions where Body == Never {
  /// Traps: a primitive has no body, the session evaluates it directly.
  public var body: Never {
    fatalError("\(Self.self) is a primitive DynamicInstructions; it has no body.")
  }
}

/// Builds dynamic instructions from instructions, tools and other dynamic instructions.
///
/// Matches FoundationModels 27 `DynamicInstructionsBuilder`: no `String` expression (write
/// `Instructions("…")`), no `buildArray` (use `ForEach`).
@resultBuilder
public struct DynamicInstructionsBuilder {
  /// A tool: enabled while this part of the tree is evaluated.
  public static func buildExpression<T: Tool>(_ expression: T) -> some DynamicInstructions {
    EnabledTools(tools: [expression])
  }

  /// Dynamic instructions, as they are.
  public static func buildExpression<T: DynamicInstructions>(_ expression: T) -> T {
    expression
  }

  /// Several tools.
  public static func buildExpression(_ tools: [any Tool]) -> some DynamicInstructions {
    EnabledTools(tools: tools)
  }

  /// The parts of a block, in order.
  @_disfavoredOverload
  public static func buildBlock<each Content: DynamicInstructions>(
    _ contents: repeat each Content
  ) -> TupleDynamicInstructions<repeat each Content> {
    TupleDynamicInstructions(repeat each contents)
  }

  /// A block of one part.
  public static func buildBlock<T: DynamicInstructions>(_ content: T) -> T {
    content
  }

  /// An empty block.
  public static func buildBlock() -> EmptyDynamicInstructions {
    EmptyDynamicInstructions()
  }

  /// The `if` branch of an `if`/`else`.
  public static func buildEither<TrueContent: DynamicInstructions, FalseContent: DynamicInstructions>(
    first content: TrueContent
  ) -> ConditionalDynamicInstructions<TrueContent, FalseContent> {
    ConditionalDynamicInstructions(.trueContent(content))
  }

  /// The `else` branch of an `if`/`else`.
  public static func buildEither<TrueContent: DynamicInstructions, FalseContent: DynamicInstructions>(
    second content: FalseContent
  ) -> ConditionalDynamicInstructions<TrueContent, FalseContent> {
    ConditionalDynamicInstructions(.falseContent(content))
  }

  /// An `if` without `else`: nil when the condition is false.
  public static func buildOptional<Content: DynamicInstructions>(_ content: Content?) -> Content? {
    content
  }
}
