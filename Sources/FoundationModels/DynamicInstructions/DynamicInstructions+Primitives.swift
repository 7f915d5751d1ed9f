/// A type-erased dynamic instructions value.
///
/// Matches FoundationModels 27 `AnyDynamicInstructions`.
public struct AnyDynamicInstructions: DynamicInstructions {
  let wrapped: any DynamicInstructions

  /// Wraps `dynamicInstructions`.
  public init(_ dynamicInstructions: any DynamicInstructions) {
    wrapped = (dynamicInstructions as? AnyDynamicInstructions)?.wrapped ?? dynamicInstructions
  }

  /// Wraps `dynamicInstructions`; the type eraser's initializer.
  @_alwaysEmitIntoClient
  public init(erasing dynamicInstructions: some DynamicInstructions) {
    self.init(dynamicInstructions)
  }
}

/// Several dynamic instructions, in order: what a builder block of more than one part makes.
///
/// Matches FoundationModels 27 `TupleDynamicInstructions`.
public struct TupleDynamicInstructions<each Content: DynamicInstructions>: DynamicInstructions {
  let contents: (repeat each Content)

  /// Combines `contents`, in order.
  public init(_ contents: repeat each Content) {
    self.contents = (repeat each contents)
  }
}

/// One of two dynamic instructions: what a builder's `if`/`else` makes.
///
/// Matches FoundationModels 27 `ConditionalDynamicInstructions`.
public struct ConditionalDynamicInstructions<TrueContent: DynamicInstructions, FalseContent: DynamicInstructions>:
  DynamicInstructions
{
  /// The branch taken.
  public enum Branch {
    case trueContent(TrueContent)
    case falseContent(FalseContent)
  }

  let branch: Branch

  /// Matches FoundationModels 27 `ConditionalDynamicInstructions.init(_:)`.
  public init(_ branch: Branch) {
    self.branch = branch
  }
}

/// No instructions and no tools.
///
/// Matches FoundationModels 27 `EmptyDynamicInstructions`.
public struct EmptyDynamicInstructions: DynamicInstructions, Sendable {
  public init() {}
}

/// Dynamic instructions for each element of a collection, in order.
///
/// Matches FoundationModels 27 `_DynamicInstructionsForEach`, written `DynamicInstructions.ForEach`
/// (or `ForEach` inside a conforming type). The session evaluates the whole tree before each
/// invocation, so the `id` key path names the elements (Apple's identity for its incremental
/// updates) without changing what the model receives.
public struct _DynamicInstructionsForEach<Data: RandomAccessCollection, ID: Hashable, Content: DynamicInstructions>:
  DynamicInstructions
{
  let data: Data
  let id: KeyPath<Data.Element, ID>
  let content: (Data.Element) -> Content

  /// The content of each element of `data`, identified by `id`.
  public init(
    _ data: Data, id: KeyPath<Data.Element, ID>,
    @DynamicInstructionsBuilder content: @escaping (Data.Element) -> Content
  ) {
    self.data = data
    self.id = id
    self.content = content
  }
}

extension _DynamicInstructionsForEach where ID == Data.Element.ID, Data.Element: Identifiable {
  /// The content of each element of `data`, identified by its `id`.
  public init(_ data: Data, @DynamicInstructionsBuilder content: @escaping (Data.Element) -> Content) {
    self.init(data, id: \.id, content: content)
  }
}

/// Matches FoundationModels 27: nil is no instructions and no tools.
extension Optional: DynamicInstructions where Wrapped: DynamicInstructions {}

/// Matches FoundationModels 27: `Never` is the body of the primitives.
extension Never: DynamicInstructions {
  public typealias Body = Never

  public var body: Never {
    self
  }
}

/// Matches FoundationModels 27: instructions are dynamic instructions that always read the same.
extension Instructions: DynamicInstructions {
  public var body: some DynamicInstructions {
    InstructionSegments(segments: segments)
  }
}

/// Matches FoundationModels 27 `_DynamicInstructionsInputs`: Apple's evaluation machinery, public
/// in name only; this implementation evaluates trees internally and needs no members.
public struct _DynamicInstructionsInputs {}

/// Matches FoundationModels 27 `_DynamicInstructionsOutputs` (see `_DynamicInstructionsInputs`).
public struct _DynamicInstructionsOutputs {}

/// Matches FoundationModels 27 `_DSLValue` (see `_DynamicInstructionsInputs`).
public struct _DSLValue<T> {}

// MARK: - Leaves that only the framework creates

/// Tools a builder expression enables.
struct EnabledTools: DynamicInstructions {
  let tools: [any Tool]
}

/// The segments of an `Instructions` value.
struct InstructionSegments: DynamicInstructions {
  let segments: [Transcript.Segment]
}
