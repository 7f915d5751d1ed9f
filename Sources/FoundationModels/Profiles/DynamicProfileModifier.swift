extension LanguageModelSession {
  /// A reusable change to a profile, applied with `modifier(_:)`.
  ///
  /// Matches FoundationModels 27 `LanguageModelSession.DynamicProfileModifier`. ``body(content:)``
  /// receives the profile it modifies as `content` and returns it with modifiers; it is
  /// evaluated with the session's properties bound, like a profile's body.
  public protocol DynamicProfileModifier {
    /// The type of the modified profile.
    associatedtype Body: LanguageModelSession.DynamicProfile

    /// The modified profile.
    @LanguageModelSession.DynamicProfileBuilder func body(content: Content) -> Body

    /// The profile a modifier receives.
    typealias Content = LanguageModelSession.DynamicProfileModifierContent<Self>
  }

  /// The profile that a modifier's ``DynamicProfileModifier/body(content:)`` modifies.
  ///
  /// Matches FoundationModels 27 `LanguageModelSession.DynamicProfileModifierContent`.
  public struct DynamicProfileModifierContent<Modifier: LanguageModelSession.DynamicProfileModifier>:
    LanguageModelSession.DynamicProfile
  {
    let content: any LanguageModelSession.DynamicProfile
  }

  /// A profile with a modifier applied.
  ///
  /// Matches FoundationModels 27 `LanguageModelSession.ModifiedDynamicProfile`.
  public struct ModifiedDynamicProfile<
    Content: LanguageModelSession.DynamicProfile, Modifier: LanguageModelSession.DynamicProfileModifier
  >: LanguageModelSession.DynamicProfile {
    let content: Content
    let modifier: Modifier
  }
}

extension LanguageModelSession.DynamicProfileModifier {
  /// Matches FoundationModels 27 `DynamicProfileModifier.DynamicProfile`.
  public typealias DynamicProfile = LanguageModelSession.DynamicProfile
  /// Matches FoundationModels 27 `DynamicProfileModifier.SessionProperty`.
  public typealias SessionProperty = LanguageModelSession.SessionProperty
}

extension LanguageModelSession.DynamicProfile {
  /// This profile, changed by `modifier`.
  ///
  /// Matches FoundationModels 27 `DynamicProfile.modifier(_:)`.
  public func modifier<Modifier: LanguageModelSession.DynamicProfileModifier>(_ modifier: Modifier)
    -> some LanguageModelSession.DynamicProfile
  {
    LanguageModelSession.ModifiedDynamicProfile(content: self, modifier: modifier)
  }
}
