extension LanguageModelSession {
  /// A session's configuration as a declarative value: dynamic instructions with a model,
  /// options, a history transform, an error policy and hooks, chosen anew before every model
  /// invocation.
  ///
  /// Matches FoundationModels 27 `LanguageModelSession.DynamicProfile`. A type's ``body`` picks
  /// a ``Profile`` (with modifiers), possibly with `if`/`else` on session properties; the
  /// session evaluates it before each invocation (each round of a tool loop too), with its
  /// properties bound for `@SessionProperty`.
  public protocol DynamicProfile {
    /// The type of the profile this one is made of.
    associatedtype Body: LanguageModelSession.DynamicProfile

    /// The profile this one stands for.
    @LanguageModelSession.DynamicProfileBuilder var body: Body { get }
  }

  /// Dynamic instructions as a profile, to be configured with modifiers.
  ///
  /// Matches FoundationModels 27 `LanguageModelSession.Profile`.
  public struct Profile: LanguageModelSession.DynamicProfile {
    let instructions: AnyDynamicInstructions

    /// A profile of the dynamic instructions the builder makes.
    public init(@DynamicInstructionsBuilder _ dynamicInstructions: () -> some DynamicInstructions) {
      instructions = AnyDynamicInstructions(dynamicInstructions())
    }
  }

  /// One of two profiles: what ``DynamicProfileBuilder`` makes of `if`/`else`.
  ///
  /// Matches FoundationModels 27 `LanguageModelSession.ConditionalDynamicProfile`; only the
  /// builder creates one.
  public struct ConditionalDynamicProfile<
    TrueContent: LanguageModelSession.DynamicProfile, FalseContent: LanguageModelSession.DynamicProfile
  >: LanguageModelSession.DynamicProfile {
    enum Branch {
      case trueContent(TrueContent)
      case falseContent(FalseContent)
    }

    let branch: Branch
  }

  /// Builds a profile: one profile expression, or an `if`/`else` between two.
  ///
  /// Matches FoundationModels 27 `LanguageModelSession.DynamicProfileBuilder`.
  @resultBuilder
  public struct DynamicProfileBuilder {
    /// The block's one profile.
    public static func buildBlock<T: LanguageModelSession.DynamicProfile>(_ content: T) -> T {
      content
    }

    /// The `if` branch.
    public static func buildEither<
      TrueContent: LanguageModelSession.DynamicProfile, FalseContent: LanguageModelSession.DynamicProfile
    >(first content: TrueContent) -> LanguageModelSession.ConditionalDynamicProfile<TrueContent, FalseContent> {
      ConditionalDynamicProfile(branch: .trueContent(content))
    }

    /// The `else` branch.
    public static func buildEither<
      TrueContent: LanguageModelSession.DynamicProfile, FalseContent: LanguageModelSession.DynamicProfile
    >(second content: FalseContent) -> LanguageModelSession.ConditionalDynamicProfile<TrueContent, FalseContent> {
      ConditionalDynamicProfile(branch: .falseContent(content))
    }
  }

  /// Matches FoundationModels 27 `LanguageModelSession._DynamicProfileInputs`: Apple's
  /// evaluation machinery, public in name only; this implementation evaluates profiles
  /// internally.
  public struct _DynamicProfileInputs {}

  /// Matches FoundationModels 27 `LanguageModelSession._DynamicProfileOutputs` (see
  /// `_DynamicProfileInputs`).
  public struct _DynamicProfileOutputs {}
}

extension LanguageModelSession.DynamicProfile where Body == Never {
  /// Traps: a primitive has no body, the session evaluates it directly.
  public var body: Never {
    fatalError("\(Self.self) is a primitive DynamicProfile; it has no body.")
  }
}

/// Matches FoundationModels 27: `Never` is the body of the primitive profiles.
extension Never: LanguageModelSession.DynamicProfile {}

extension LanguageModelSession.DynamicProfile {
  /// Matches FoundationModels 27 `DynamicProfile.Profile`.
  public typealias Profile = LanguageModelSession.Profile
  /// Matches FoundationModels 27 `DynamicProfile.DynamicProfile`.
  public typealias DynamicProfile = LanguageModelSession.DynamicProfile
  /// Matches FoundationModels 27 `DynamicProfile.SessionProperty`.
  public typealias SessionProperty = LanguageModelSession.SessionProperty
}
