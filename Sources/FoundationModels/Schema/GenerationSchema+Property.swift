extension GenerationSchema {
  /// A property of a structure: its name, description, type and guides.
  ///
  /// Matches FoundationModels `GenerationSchema.Property`. The type's schema is read only when
  /// the enclosing ``GenerationSchema`` is built, so a type may contain itself.
  public struct Property: Sendable {
    let name: String
    let description: String?
    let isOptional: Bool
    /// The property's node and definitions, computed when the enclosing schema is built.
    let fragment: @Sendable () -> SchemaFragment

    /// Creates a property of a generable type.
    ///
    /// Matches FoundationModels `GenerationSchema.Property.init(name:description:type:guides:)`.
    public init<Value: Generable>(
      name: String, description: String? = nil, type: Value.Type,
      guides: [GenerationGuide<Value>] = []
    ) {
      self.init(name: name, description: description, type: type, guides: guides, isOptional: false)
    }

    /// Creates an optional property, which the model may leave out.
    ///
    /// Matches FoundationModels `GenerationSchema.Property.init(name:description:type:guides:)`
    /// for optional types.
    public init<Value: Generable>(
      name: String, description: String? = nil, type: Value?.Type,
      guides: [GenerationGuide<Value>] = []
    ) {
      self.init(
        name: name, description: description, type: Value.self, guides: guides, isOptional: true)
    }

    /// Creates a string property that must match every regex.
    ///
    /// Matches FoundationModels `GenerationSchema.Property.init(name:description:type:guides:)`
    /// with regexes. See ``GenerationGuide/pattern(_:)`` for how the regex source is recovered.
    public init<RegexOutput>(
      name: String, description: String? = nil, type: String.Type,
      guides: [Regex<RegexOutput>] = []
    ) {
      self.init(
        name: name, description: description, type: String.self,
        guides: guides.map { .pattern($0) }, isOptional: false)
    }

    /// Creates an optional string property that must match every regex when present.
    ///
    /// Matches FoundationModels `GenerationSchema.Property.init(name:description:type:guides:)`
    /// with regexes, for optional strings.
    public init<RegexOutput>(
      name: String, description: String? = nil, type: String?.Type,
      guides: [Regex<RegexOutput>] = []
    ) {
      self.init(
        name: name, description: description, type: String.self,
        guides: guides.map { .pattern($0) }, isOptional: true)
    }

    private init<Value: Generable>(
      name: String, description: String?, type: Value.Type, guides: [GenerationGuide<Value>],
      isOptional: Bool
    ) {
      self.name = name
      self.description = description
      self.isOptional = isOptional
      let kinds = guides.flatMap(\.kinds)
      fragment = {
        var fragment = SchemaComposer.fragment(for: Value.self)
        fragment.node = fragment.node.applying(kinds)
        return fragment
      }
    }
  }
}
