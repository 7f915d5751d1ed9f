extension GeneratedContent {
  /// The properties of a structure, in order; `nil` for any other kind.
  var orderedProperties: [(key: String, value: GeneratedContent)]? {
    guard case .structure(let properties, let orderedKeys) = kind else { return nil }
    return orderedKeys.compactMap { key in properties[key].map { (key, $0) } }
  }

  /// The elements of an array; `nil` for any other kind.
  var arrayElements: [GeneratedContent]? {
    guard case .array(let elements) = kind else { return nil }
    return elements
  }

  /// Reads the content as a value of the given type.
  ///
  /// Matches FoundationModels `GeneratedContent.value(_:)`.
  /// - Throws: `LanguageModelSession.GenerationError.decodingFailure` when the content does not
  ///   have the shape of `Value`.
  public func value<Value: ConvertibleFromGeneratedContent>(_ type: Value.Type = Value.self)
    throws -> Value
  {
    try Value(self)
  }

  /// Reads one property of a structure as a value of the given type.
  ///
  /// Matches FoundationModels `GeneratedContent.value(_:forProperty:)`.
  /// - Throws: `LanguageModelSession.GenerationError.decodingFailure` when this content is not a
  ///   structure, the property is absent, or its value does not have the shape of `Value`.
  public func value<Value: ConvertibleFromGeneratedContent>(
    _ type: Value.Type = Value.self, forProperty property: String
  ) throws -> Value {
    guard let properties = try structureProperties(reading: property) else {
      throw LanguageModelSession.GenerationError.decodingFailure(
        .init(debugDescription: "Property '\(property)' is missing; a value of type \(Value.self) was expected."))
    }
    return try Value(properties)
  }

  /// Reads an optional property of a structure.
  ///
  /// Matches FoundationModels `GeneratedContent.value(_:forProperty:)` for optional values.
  /// Returns `nil` when the property is absent or `null`. While content streams, a value that is
  /// still incomplete and cannot be read yet (for example `"ma"` of an enum case `"main"`) also
  /// reads as `nil` rather than throwing, so partially generated types can be built from every
  /// snapshot.
  /// - Throws: `LanguageModelSession.GenerationError.decodingFailure` when this content is not a
  ///   structure, or a complete value does not have the shape of `Value`.
  public func value<Value: ConvertibleFromGeneratedContent>(
    _ type: Value?.Type = Value?.self, forProperty property: String
  ) throws -> Value? {
    guard let value = try structureProperties(reading: property) else { return nil }
    if case .null = value.kind { return nil }
    do {
      return try Value(value)
    } catch  where !value.isComplete {
      return nil
    }
  }

  /// The value of `property`, or `nil` when absent; throws when this is not a structure.
  private func structureProperties(reading property: String) throws -> GeneratedContent? {
    guard case .structure(let properties, _) = kind else {
      throw LanguageModelSession.GenerationError.decodingFailure(
        .init(debugDescription: "Cannot read property '\(property)' of \(kind.name); a structure was expected."))
    }
    return properties[property]
  }

  /// The error for content whose kind does not match what a type expects.
  func kindMismatch(expected: String, for type: Any.Type) -> LanguageModelSession.GenerationError {
    .decodingFailure(
      .init(debugDescription: "Cannot read \(type) from \(kind.name) (\(jsonString)); \(expected) was expected."))
  }
}
