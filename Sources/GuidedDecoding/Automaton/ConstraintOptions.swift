/// How a schema becomes a constraint: what generation may write where JSON Schema leaves the
/// shape open.
///
/// JSON Schema is a language for checking values, and it is generous where it says nothing:
/// an object without `additionalProperties` admits any further member, and a recursive
/// reference nests as deep as a value likes. A validator must honour that; a generator that
/// honours it lets a small model invent members and nest them until the context is full. So
/// generation (`.generation`, the default) writes only what the schema asks for, and
/// checking text against the standard's meaning (`.standard`) is a separate choice.
/// `SchemaValidator` always keeps the standard's meaning.
public struct ConstraintOptions: Sendable, Hashable {
  /// Whether members a schema does not declare are written where only JSON Schema's default
  /// allows them (no `additionalProperties` keyword).
  ///
  /// When false, such an object gets its declared properties only, unless `minProperties` asks for
  /// more members than it declares. Members the schema asks for with a schema of their own
  /// (`additionalProperties: {…}` or `true`) are written either way.
  public var generatesUndeclaredProperties: Bool
  /// How many times a recursive `$ref` may be entered again inside itself, and how deep a free
  /// value (`{}`) may nest arrays and objects; `nil` for no limit.
  ///
  /// A branch that would go deeper is left out, so generation still always finishes validly; a
  /// schema whose every value needs more levels is compiled without the limit.
  public var maximumRecursion: Int?
  /// Whether `format` holds only where the document's draft asserts it (drafts 2019-09 and
  /// 2020-12 only annotate, `SchemaDocument.formatsAreAnnotations`).
  ///
  /// When false, as in generation, every format holds, so written values are well-formed.
  public var formatsFollowTheDraft: Bool
  /// Whether a space follows every `:` and `,` between members and items (`{"a": 1, "b": [1, 2]}`),
  /// as Python's `json.dumps` and Jinja's `tojson` write JSON, rather than none (`{"a":1}`).
  ///
  /// A tool call's arguments are generated in the spacing the chat template renders them in,
  /// so the call the model wrote and the call rendered back into the next turn's prompt are the
  /// same text (and the same cache).
  public var spacesSeparators: Bool

  public init(
    generatesUndeclaredProperties: Bool = false, maximumRecursion: Int? = 10, formatsFollowTheDraft: Bool = false,
    spacesSeparators: Bool = false
  ) {
    self.generatesUndeclaredProperties = generatesUndeclaredProperties
    self.maximumRecursion = maximumRecursion
    self.formatsFollowTheDraft = formatsFollowTheDraft
    self.spacesSeparators = spacesSeparators
  }

  /// What generation uses by default: declared structure only, recursion at most 10 deep.
  public static let generation = ConstraintOptions()

  /// Exactly the values JSON Schema admits (for checking text; corpus measurements).
  public static let standard = ConstraintOptions(
    generatesUndeclaredProperties: true, maximumRecursion: nil, formatsFollowTheDraft: true)
}
