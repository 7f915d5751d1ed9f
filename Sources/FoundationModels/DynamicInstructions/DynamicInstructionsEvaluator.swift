/// What one evaluation of a dynamic instructions tree produced.
struct EvaluatedInstructions: Sendable {
  /// The instructions' segments, adjacent text joined with newlines.
  var segments: [Transcript.Segment]
  /// The enabled tools, in tree order.
  var tools: [any Tool]

  /// The transcript entry the model receives first: the segments and the tools' definitions.
  var entry: Transcript.Entry {
    .instructions(
      Transcript.Instructions(segments: segments, toolDefinitions: tools.map { Transcript.ToolDefinition(tool: $0) }))
  }
}

/// Walks a dynamic instructions tree: the framework's primitives directly, every other type
/// through its `body`.
struct DynamicInstructionsEvaluator {
  private var segmentParts: [[Transcript.Segment]] = []
  private var tools: [any Tool] = []

  /// Evaluates the tree under `root`.
  static func evaluate(_ root: some DynamicInstructions) -> EvaluatedInstructions {
    var evaluator = DynamicInstructionsEvaluator()
    evaluator.visit(root)
    return EvaluatedInstructions(segments: SegmentJoining.join(evaluator.segmentParts), tools: evaluator.tools)
  }

  mutating func visit<Node: DynamicInstructions>(_ node: Node) {
    if let primitive = node as? any PrimitiveDynamicInstructions {
      primitive.evaluate(into: &self)
    } else {
      visit(node.body)
    }
  }

  mutating func append(_ segments: [Transcript.Segment]) {
    segmentParts.append(segments)
  }

  mutating func enable(_ tools: [any Tool]) {
    self.tools += tools
  }
}

/// A building block the evaluator handles itself instead of reading its body.
protocol PrimitiveDynamicInstructions {
  func evaluate(into evaluator: inout DynamicInstructionsEvaluator)
}

extension AnyDynamicInstructions: PrimitiveDynamicInstructions {
  func evaluate(into evaluator: inout DynamicInstructionsEvaluator) {
    evaluator.visit(wrapped)
  }
}

extension TupleDynamicInstructions: PrimitiveDynamicInstructions {
  func evaluate(into evaluator: inout DynamicInstructionsEvaluator) {
    for content in repeat each contents {
      evaluator.visit(content)
    }
  }
}

extension ConditionalDynamicInstructions: PrimitiveDynamicInstructions {
  func evaluate(into evaluator: inout DynamicInstructionsEvaluator) {
    switch branch {
    case .trueContent(let content): evaluator.visit(content)
    case .falseContent(let content): evaluator.visit(content)
    }
  }
}

extension EmptyDynamicInstructions: PrimitiveDynamicInstructions {
  func evaluate(into evaluator: inout DynamicInstructionsEvaluator) {}
}

extension _DynamicInstructionsForEach: PrimitiveDynamicInstructions {
  func evaluate(into evaluator: inout DynamicInstructionsEvaluator) {
    for element in data {
      evaluator.visit(content(element))
    }
  }
}

extension Optional: PrimitiveDynamicInstructions where Wrapped: DynamicInstructions {
  func evaluate(into evaluator: inout DynamicInstructionsEvaluator) {
    if let wrapped = self { evaluator.visit(wrapped) }
  }
}

extension EnabledTools: PrimitiveDynamicInstructions {
  func evaluate(into evaluator: inout DynamicInstructionsEvaluator) {
    evaluator.enable(tools)
  }
}

extension InstructionSegments: PrimitiveDynamicInstructions {
  func evaluate(into evaluator: inout DynamicInstructionsEvaluator) {
    evaluator.append(segments)
  }
}
