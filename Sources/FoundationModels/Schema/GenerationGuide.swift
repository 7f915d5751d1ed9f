/// A rule that guides generation of a value: a constant, a set of choices, a pattern, bounds,
/// an element count.
///
/// Matches FoundationModels `GenerationGuide`. Guides are enforced while decoding, never
/// checked afterwards. Internally a guide is a list of ``GuideKind``s, which
/// `GenerationSchemaNode.applying(_:)` folds into the schema.
public struct GenerationGuide<Value>: Sendable {
  /// What this guide requires, in the order given.
  let kinds: [GuideKind]

  init(_ kinds: [GuideKind]) {
    self.kinds = kinds
  }
}

/// One requirement of a ``GenerationGuide``.
enum GuideKind: Sendable, Equatable {
  /// The string is exactly this value.
  case constant(String)
  /// The string is one of these values.
  case anyOf([String])
  /// The string matches this regex source entirely.
  case pattern(String)
  /// A regex whose source could not be recovered (see `GenerationGuide.pattern(_:)`).
  case unsupportedPattern(String)
  /// Inclusive lower bound of a number.
  case minimum(Double)
  /// Inclusive upper bound of a number.
  case maximum(Double)
  /// Inclusive lower bound of an array's element count.
  case minimumCount(Int)
  /// Inclusive upper bound of an array's element count.
  case maximumCount(Int)
  /// Guides for every element of an array.
  case element([GuideKind])
}

// MARK: - Strings

extension GenerationGuide where Value == String {
  /// Generates exactly the given string.
  ///
  /// Matches FoundationModels `GenerationGuide.constant(_:)`.
  public static func constant(_ value: String) -> GenerationGuide<String> {
    GenerationGuide([.constant(value)])
  }

  /// Generates one of the given strings.
  ///
  /// Matches FoundationModels `GenerationGuide.anyOf(_:)`.
  public static func anyOf(_ values: [String]) -> GenerationGuide<String> {
    GenerationGuide([.anyOf(values)])
  }

  /// Generates a string that the regex matches entirely.
  ///
  /// Matches FoundationModels `GenerationGuide.pattern(_:)`.
  ///
  /// Swift's `Regex` does not keep its source text. We recover it with the standard library's
  /// public `Regex._literalPattern`, which prints the regex's syntax tree back as a pattern;
  /// it works for regex literals (`/[a-z]+/`), `Regex(_: String)` and most RegexBuilder
  /// regexes. The printed form is canonical rather than verbatim (`/[A-Z]-\d/` comes back as
  /// `[A-Z]\-\d`), with the same meaning. When it cannot (for example a builder with custom components), the guide is kept
  /// as unsupported and generation throws `GenerationError.unsupportedGuide` — it is never
  /// silently ignored.
  public static func pattern<Output>(_ regex: Regex<Output>) -> GenerationGuide<String> {
    GenerationGuide([RegexSource.guideKind(for: regex)])
  }

  /// Generates a string that the regex source matches entirely; for callers that have the
  /// pattern as text (schemas decoded from JSON, command-line input).
  static func pattern(source: String) -> GenerationGuide<String> {
    GenerationGuide([.pattern(source)])
  }
}

/// Recovers the source of a `Regex`.
enum RegexSource {
  static func guideKind<Output>(for regex: Regex<Output>) -> GuideKind {
    if let source = regex._literalPattern {
      return .pattern(source)
    }
    return .unsupportedPattern(String(describing: regex))
  }
}

// MARK: - Arrays

extension GenerationGuide {
  /// Generates exactly `count` elements.
  ///
  /// Matches FoundationModels `GenerationGuide.count(_:)`.
  public static func count<Element>(_ count: Int) -> GenerationGuide<[Element]>
  where Value == [Element] {
    GenerationGuide<[Element]>([.minimumCount(count), .maximumCount(count)])
  }

  /// Generates a number of elements within the range.
  ///
  /// Matches FoundationModels `GenerationGuide.count(_:)` with a range.
  public static func count<Element>(_ range: ClosedRange<Int>) -> GenerationGuide<[Element]>
  where Value == [Element] {
    GenerationGuide<[Element]>([.minimumCount(range.lowerBound), .maximumCount(range.upperBound)])
  }

  /// Generates at least `count` elements.
  ///
  /// Matches FoundationModels `GenerationGuide.minimumCount(_:)`.
  public static func minimumCount<Element>(_ count: Int) -> GenerationGuide<[Element]>
  where Value == [Element] {
    GenerationGuide<[Element]>([.minimumCount(count)])
  }

  /// Generates at most `count` elements.
  ///
  /// Matches FoundationModels `GenerationGuide.maximumCount(_:)`.
  public static func maximumCount<Element>(_ count: Int) -> GenerationGuide<[Element]>
  where Value == [Element] {
    GenerationGuide<[Element]>([.maximumCount(count)])
  }

  /// Applies a guide to every element.
  ///
  /// Matches FoundationModels `GenerationGuide.element(_:)`.
  public static func element<Element>(_ guide: GenerationGuide<Element>) -> GenerationGuide<[Element]>
  where Value == [Element] {
    GenerationGuide<[Element]>([.element(guide.kinds)])
  }
}

/// Non-generic twins of the array guides.
///
/// `@Guide(.count(3))` is type-checked against `Guide<T>(description:_: GenerationGuide<T>...)`
/// before the macro knows the property's type; these overloads let `T` be `[Never]` there. The
/// macro's expansion then checks the same expression against the real property type.
/// Matches FoundationModels' private unconstrained `count` / `minimumCount` / `maximumCount`.
extension GenerationGuide where Value == [Never] {
  /// Generates exactly `count` elements.
  public static func count(_ count: Int) -> GenerationGuide<Value> {
    GenerationGuide([.minimumCount(count), .maximumCount(count)])
  }

  /// Generates a number of elements within the range.
  public static func count(_ range: ClosedRange<Int>) -> GenerationGuide<Value> {
    GenerationGuide([.minimumCount(range.lowerBound), .maximumCount(range.upperBound)])
  }

  /// Generates at least `count` elements.
  public static func minimumCount(_ count: Int) -> GenerationGuide<Value> {
    GenerationGuide([.minimumCount(count)])
  }

  /// Generates at most `count` elements.
  public static func maximumCount(_ count: Int) -> GenerationGuide<Value> {
    GenerationGuide([.maximumCount(count)])
  }
}
