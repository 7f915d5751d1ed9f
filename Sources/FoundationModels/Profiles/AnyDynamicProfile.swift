extension LanguageModelSession {
  /// A type-erased dynamic profile, for code that picks a profile at run time or stores
  /// profiles of different types together.
  ///
  /// Matches FoundationModels 27 `LanguageModelSession.AnyDynamicProfile` (in Apple's
  /// documentation, not in the first 27 SDK interface). It resolves exactly as the profile it
  /// wraps, with that profile's hooks: the wrapped type's name is part of where the hooks live,
  /// so two different wrapped profiles never share lifecycle state.
  public struct AnyDynamicProfile: LanguageModelSession.DynamicProfile {
    let wrapped: any LanguageModelSession.DynamicProfile

    /// Wraps `dynamicProfile`.
    public init(_ dynamicProfile: any LanguageModelSession.DynamicProfile) {
      wrapped = (dynamicProfile as? AnyDynamicProfile)?.wrapped ?? dynamicProfile
    }

    /// Wraps `dynamicProfile`; the type eraser's initializer.
    @_alwaysEmitIntoClient
    public init(erasing dynamicProfile: some LanguageModelSession.DynamicProfile) {
      self.init(dynamicProfile)
    }
  }
}

extension LanguageModelSession.AnyDynamicProfile: PrimitiveDynamicProfile {
  func resolve(at place: String) -> ResolvedProfile {
    resolveWrapped(wrapped, at: place)
  }

  private func resolveWrapped(_ profile: some LanguageModelSession.DynamicProfile, at place: String) -> ResolvedProfile
  {
    DynamicProfileEvaluator.resolve(profile, at: "\(place)/any")
  }
}
