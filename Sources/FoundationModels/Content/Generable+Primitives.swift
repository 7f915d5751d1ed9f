import Foundation

extension Bool: Generable {
  /// Matches FoundationModels `Bool.generationSchema`: `{"type":"boolean"}`.
  public static var generationSchema: GenerationSchema { GenerationSchema(root: .boolean) }

  /// Matches FoundationModels `Bool.init(_:)`; reads a Boolean.
  public init(_ content: GeneratedContent) throws {
    guard case .bool(let value) = content.kind else {
      throw content.kindMismatch(expected: "a Boolean", for: Bool.self)
    }
    self = value
  }

  /// Matches FoundationModels `Bool.generatedContent`.
  public var generatedContent: GeneratedContent { GeneratedContent(kind: .bool(self)) }
}

extension String: Generable {
  /// Matches FoundationModels `String.generationSchema`: `{"type":"string"}`.
  public static var generationSchema: GenerationSchema { GenerationSchema(root: .string(StringSchema())) }

  /// Matches FoundationModels `String.init(_:)`; reads a string, complete or not.
  public init(_ content: GeneratedContent) throws {
    guard case .string(let value) = content.kind else {
      throw content.kindMismatch(expected: "a string", for: String.self)
    }
    self = value
  }

  /// Matches FoundationModels `String.generatedContent`.
  public var generatedContent: GeneratedContent { GeneratedContent(kind: .string(self)) }
}

extension Int: Generable {
  /// Matches FoundationModels `Int.generationSchema`: `{"type":"integer"}`.
  public static var generationSchema: GenerationSchema { GenerationSchema(root: .integer(NumberSchema())) }

  /// Matches FoundationModels `Int.init(_:)`; reads an integral number in `Int`'s range.
  public init(_ content: GeneratedContent) throws {
    guard case .number(let value) = content.kind, let integer = Int(exactly: value) else {
      throw content.kindMismatch(expected: "an integer", for: Int.self)
    }
    self = integer
  }

  /// Matches FoundationModels `Int.generatedContent`.
  public var generatedContent: GeneratedContent { GeneratedContent(kind: .number(Double(self))) }
}

extension Double: Generable {
  /// Matches FoundationModels `Double.generationSchema`: `{"type":"number"}`.
  public static var generationSchema: GenerationSchema { GenerationSchema(root: .number(NumberSchema())) }

  /// Matches FoundationModels `Double.init(_:)`; reads a number.
  public init(_ content: GeneratedContent) throws {
    guard case .number(let value) = content.kind else {
      throw content.kindMismatch(expected: "a number", for: Double.self)
    }
    self = value
  }

  /// Matches FoundationModels `Double.generatedContent`.
  public var generatedContent: GeneratedContent { GeneratedContent(kind: .number(self)) }
}

extension Float: Generable {
  /// Matches FoundationModels `Float.generationSchema`: `{"type":"number"}`.
  public static var generationSchema: GenerationSchema { GenerationSchema(root: .number(NumberSchema())) }

  /// Matches FoundationModels `Float.init(_:)`; reads a number.
  public init(_ content: GeneratedContent) throws {
    guard case .number(let value) = content.kind else {
      throw content.kindMismatch(expected: "a number", for: Float.self)
    }
    self = Float(value)
  }

  /// Matches FoundationModels `Float.generatedContent`.
  public var generatedContent: GeneratedContent { GeneratedContent(kind: .number(Double(self))) }
}

extension Decimal: Generable {
  /// Matches FoundationModels `Decimal.generationSchema`: `{"type":"number"}`.
  public static var generationSchema: GenerationSchema { GenerationSchema(root: .number(NumberSchema())) }

  /// Matches FoundationModels `Decimal.init(_:)`; reads a number.
  ///
  /// Content carries numbers as `Double`, so a decimal keeps `Double`'s precision (about 15
  /// significant digits).
  public init(_ content: GeneratedContent) throws {
    guard case .number(let value) = content.kind else {
      throw content.kindMismatch(expected: "a number", for: Decimal.self)
    }
    self = Decimal(string: JSONWriter.format(value)) ?? Decimal(value)
  }

  /// Matches FoundationModels `Decimal.generatedContent`.
  public var generatedContent: GeneratedContent {
    GeneratedContent(kind: .number(NSDecimalNumber(decimal: self).doubleValue))
  }
}

extension Never: Generable {
  /// The schema of a value that cannot exist.
  ///
  /// Apple uses `Never` only to type-check guides (`GenerationGuide<[Never]>`); it is never
  /// generated, so its schema is an empty union, which guided decoding rejects.
  public static var generationSchema: GenerationSchema {
    GenerationSchema(root: .anyOf(UnionSchema(name: "Never", choices: [])))
  }

  /// Always throws: no content represents `Never`.
  ///
  /// Matches FoundationModels `Never.init(_:)`.
  public init(_ content: GeneratedContent) throws {
    throw content.kindMismatch(expected: "nothing (Never has no values)", for: Never.self)
  }

  /// Matches FoundationModels `Never.generatedContent`; cannot be called.
  public var generatedContent: GeneratedContent {
    switch self {}
  }
}

extension GeneratedContent: Generable {
  /// Matches FoundationModels `GeneratedContent.generationSchema`: any JSON value (`{}`).
  public static var generationSchema: GenerationSchema { GenerationSchema(root: .any) }

  /// Matches FoundationModels `GeneratedContent.init(_:)`; the content itself.
  public init(_ content: GeneratedContent) throws {
    self = content
  }

  /// Matches FoundationModels `GeneratedContent.generatedContent`; the content itself.
  public var generatedContent: GeneratedContent { self }
}
