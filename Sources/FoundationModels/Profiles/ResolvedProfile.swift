import Foundation
import Synchronization

/// A turn's hook, as a modifier stored it.
enum ProfileHook {
  typealias Action<each Argument> = nonisolated(nonsending) (repeat each Argument) async throws -> Void

  case prompt(Action<Transcript.Prompt>)
  case response(Action<Transcript.Response>)
  case toolCall(Action<Transcript.ToolCall>)
  case toolOutput(Action<Transcript.ToolCall, Transcript.ToolOutput>)
}

/// What one modifier sets.
enum ProfileSetting {
  case model(any LanguageModel)
  case options((inout GenerationOptions) -> Void)
  case contextOptions((inout ContextOptions) -> Void)
  case historyTransform(([Transcript.Entry]) -> [Transcript.Entry])
  case transcriptErrorHandlingPolicy(TranscriptErrorHandlingPolicy?)
  case hook(ProfileHook)
  case activate(@isolated(any) () async -> Void)
  case deactivate(@isolated(any) () async -> Void)
}

/// A profile with one modifier's setting: what the modifiers of `DynamicProfile` return.
struct ConfiguredProfile<Content: LanguageModelSession.DynamicProfile>: LanguageModelSession.DynamicProfile {
  let content: Content
  let setting: ProfileSetting
}

/// A profile evaluated for one invocation: its dynamic instructions and everything its
/// modifiers set.
struct ResolvedProfile {
  var instructions: any DynamicInstructions
  var model: (any LanguageModel)?
  /// Defaults for the request's generation options (the request's own values win).
  var options = GenerationOptions()
  /// Defaults for the request's context options.
  var contextOptions = ContextOptions()
  /// The history transforms, in the order they apply: the outermost modifier's first.
  var historyTransforms: [([Transcript.Entry]) -> [Transcript.Entry]] = []
  var transcriptErrorHandlingPolicy: TranscriptErrorHandlingPolicy?
  /// The hooks, in the order they run: the outermost modifier's first.
  var hooks: [ProfileHook] = []
  /// The lifecycle hooks, by the place in the profile tree of the modifier that set them.
  var activations: [(place: String, action: @isolated(any) () async -> Void)] = []
  var deactivations: [(place: String, action: @isolated(any) () async -> Void)] = []

  /// Applies a modifier's setting over what the profile it modifies resolved to (where both
  /// set the same field, the inner one — already applied — wins; transforms and hooks of an
  /// outer modifier go before the inner ones').
  mutating func apply(_ setting: ProfileSetting, at place: String) {
    switch setting {
    case .model(let model): if self.model == nil { self.model = model }
    case .options(let set): set(&options)
    case .contextOptions(let set): set(&contextOptions)
    case .historyTransform(let transform): historyTransforms.insert(transform, at: 0)
    case .transcriptErrorHandlingPolicy(let policy):
      if transcriptErrorHandlingPolicy == nil { transcriptErrorHandlingPolicy = policy }
    case .hook(let hook): hooks.insert(hook, at: 0)
    case .activate(let action): activations.append((place, action))
    case .deactivate(let action): deactivations.append((place, action))
    }
  }

  /// The transcript of an invocation (instructions included) after the history transforms.
  func transformedHistory(_ entries: [Transcript.Entry]) -> [Transcript.Entry] {
    historyTransforms.reduce(entries) { entries, transform in transform(entries) }
  }
}

/// Walks a profile: the framework's primitives directly, every other type through its `body`.
/// `place` names where in the tree a node is (its branches and types), so that the session can
/// tell when a lifecycle hook's branch becomes active or inactive.
enum DynamicProfileEvaluator {
  static func resolve<Profile: LanguageModelSession.DynamicProfile>(_ profile: Profile, at place: String)
    -> ResolvedProfile
  {
    if let primitive = profile as? any PrimitiveDynamicProfile { return primitive.resolve(at: place) }
    return resolve(profile.body, at: "\(place)/\(Profile.self)")
  }
}

/// A profile the evaluator handles itself instead of reading its body.
protocol PrimitiveDynamicProfile {
  func resolve(at place: String) -> ResolvedProfile
}

extension LanguageModelSession.Profile: PrimitiveDynamicProfile {
  func resolve(at place: String) -> ResolvedProfile {
    ResolvedProfile(instructions: instructions)
  }
}

extension LanguageModelSession.ConditionalDynamicProfile: PrimitiveDynamicProfile {
  func resolve(at place: String) -> ResolvedProfile {
    switch branch {
    case .trueContent(let content): DynamicProfileEvaluator.resolve(content, at: "\(place)/true")
    case .falseContent(let content): DynamicProfileEvaluator.resolve(content, at: "\(place)/false")
    }
  }
}

extension LanguageModelSession.DynamicProfileModifierContent: PrimitiveDynamicProfile {
  func resolve(at place: String) -> ResolvedProfile {
    DynamicProfileEvaluator.resolve(content, at: "\(place)/content")
  }
}

extension LanguageModelSession.ModifiedDynamicProfile: PrimitiveDynamicProfile {
  func resolve(at place: String) -> ResolvedProfile {
    let body = modifier.body(content: LanguageModelSession.DynamicProfileModifierContent(content: content))
    return DynamicProfileEvaluator.resolve(body, at: "\(place)/\(Modifier.self)")
  }
}

extension ConfiguredProfile: PrimitiveDynamicProfile {
  func resolve(at place: String) -> ResolvedProfile {
    var resolved = DynamicProfileEvaluator.resolve(content, at: "\(place)/configured")
    resolved.apply(setting, at: place)
    return resolved
  }
}

/// A session's profile, and which lifecycle hooks are active.
///
/// The profile need not be `Sendable`; the session evaluates it once at a time (one turn at a
/// time), outside the lock.
final class DynamicProfileRoot: Sendable {
  private nonisolated(unsafe) let profile: any LanguageModelSession.DynamicProfile

  /// Lifecycle hooks as the mutex holds and hands them out. Unchecked: the hooks are not
  /// `@Sendable` (Apple's modifiers do not require it); the session runs them one turn at a time.
  private struct Hooks: @unchecked Sendable {
    var actions: [(place: String, action: @isolated(any) () async -> Void)]
  }

  /// The places of the lifecycle hooks of the latest evaluation, and its deactivation hooks.
  private let active = Mutex<(places: Set<String>, deactivations: Hooks)?>(nil)

  init(_ profile: sending some LanguageModelSession.DynamicProfile) {
    self.profile = profile
  }

  /// Evaluates the profile with `properties` bound for its `@SessionProperty` wrappers.
  func resolve(with properties: SessionPropertyValues) -> ResolvedProfile {
    SessionPropertyValues.$current.withValue(properties) { DynamicProfileEvaluator.resolve(profile, at: "") }
  }

  /// Records `resolved` as the active profile.
  /// - Returns: the lifecycle hooks to run: the deactivations of hooks that are no longer
  ///   present, then the activations of those that are new.
  func activate(_ resolved: ResolvedProfile) -> [@isolated(any) () async -> Void] {
    let places = Set(resolved.activations.map(\.place) + resolved.deactivations.map(\.place))
    let deactivations = Hooks(actions: resolved.deactivations)
    let previous = active.withLock { active in
      defer { active = (places, deactivations) }
      return active
    }
    let ending = (previous?.deactivations.actions ?? []).filter { !places.contains($0.place) }.map(\.action)
    let starting = resolved.activations.filter { !(previous?.places.contains($0.place) ?? false) }.map(\.action)
    return ending + starting
  }
}
