extension GenerationSchemaNode {
  /// This node with the guides folded in.
  ///
  /// A guide that does not fit the node's type cannot be written through the typed public API
  /// (a `GenerationGuide<Int>` only reaches integer properties), so it is ignored here. Bounds
  /// narrow: two minimums keep the larger one.
  func applying(_ guides: [GuideKind]) -> GenerationSchemaNode {
    guides.reduce(self) { $0.applying($1) }
  }

  private func applying(_ guide: GuideKind) -> GenerationSchemaNode {
    switch (self, guide) {
    case (.string(var string), .constant(let value)):
      string.constant = value
      return .string(string)
    case (.string(var string), .anyOf(let values)):
      string.choices = values
      return .string(string)
    case (.string(var string), .pattern(let source)):
      string.patterns.append(source)
      return .string(string)
    case (.string(var string), .unsupportedPattern(let description)):
      string.unsupportedPatterns.append(description)
      return .string(string)
    case (.integer(let bounds), _):
      return .integer(bounds.applying(guide))
    case (.number(let bounds), _):
      return .number(bounds.applying(guide))
    case (.array(var array), .minimumCount(let count)):
      array.minimumCount = max(array.minimumCount ?? count, count)
      return .array(array)
    case (.array(var array), .maximumCount(let count)):
      array.maximumCount = min(array.maximumCount ?? count, count)
      return .array(array)
    case (.array(var array), .element(let guides)):
      array.items = array.items.applying(guides)
      return .array(array)
    default:
      return self
    }
  }
}

extension NumberSchema {
  fileprivate func applying(_ guide: GuideKind) -> NumberSchema {
    var result = self
    switch guide {
    case .minimum(let value): result.minimum = Swift.max(minimum ?? value, value)
    case .maximum(let value): result.maximum = Swift.min(maximum ?? value, value)
    default: break
    }
    return result
  }
}
