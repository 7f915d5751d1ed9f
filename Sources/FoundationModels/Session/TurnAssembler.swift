import Foundation

/// Turns the channel events of one model invocation into transcript entries, in the order the
/// model produced them.
///
/// The rules (Apple leaves them unstated; these are ours):
/// - Events with an `entryID` build the entry with that id (of their kind); a nil `entryID`
///   continues the newest entry of the same kind when it is the newest entry overall, and else
///   starts a new one — so reasoning, an answer, and reasoning again make three entries.
/// - Text with a `segmentID` goes to the text segment with that id (created when new); without
///   one it continues the entry's last text segment.
/// - Metadata updates merge into the entry's (or the tool call's) metadata, key by key.
/// - Usage updates report the invocation's totals so far: the last one counts. Usage is not an
///   entry: an update that carries only usage never opens one, whatever its kind — a provider
///   that streams its tool calls and then reports usage on a response event (as OpenAI-compatible
///   servers' last chunk makes Apple's `ChatCompletionsLanguageModel` do) still ends with its calls.
/// - Tool-call arguments are concatenated per call id and parsed as JSON when the invocation
///   ends; `ToolCalls` entry metadata has no place in `Transcript.ToolCalls` and is dropped.
package struct TurnAssembler {
  private enum Draft {
    case response(id: String, segments: [Transcript.Segment], metadata: TranscriptMetadata)
    case reasoning(id: String, segments: [Transcript.Segment], signature: Data?, metadata: TranscriptMetadata)
    case toolCalls(id: String, calls: [CallDraft])

    var id: String {
      switch self {
      case .response(let id, _, _), .reasoning(let id, _, _, _), .toolCalls(let id, _): id
      }
    }

    var kind: LanguageModelExecutorGenerationChannel.EventKind.Value {
      switch self {
      case .response: .response
      case .reasoning: .reasoning
      case .toolCalls: .toolCalls
      }
    }
  }

  private struct CallDraft {
    var id: String
    var name: String
    var arguments: String
    var metadata: TranscriptMetadata
  }

  private var drafts: [Draft] = []
  /// The invocation's usage, when the executor reported it.
  package private(set) var usage: LanguageModelExecutorGenerationChannel.Usage?

  package init() {}

  /// Applies one event.
  package mutating func apply(_ event: any LanguageModelExecutorGenerationChannel.Event) {
    switch event {
    case let event as LanguageModelExecutorGenerationChannel.Response: apply(event)
    case let event as LanguageModelExecutorGenerationChannel.Reasoning: apply(event)
    case let event as LanguageModelExecutorGenerationChannel.ToolCalls: apply(event)
    default: break  // EventKind cannot be made outside the framework: no other events exist.
    }
  }

  /// The text of the newest response entry: the answer being generated.
  package var responseText: String? {
    for draft in drafts.reversed() {
      if case .response(_, let segments, _) = draft { return SegmentJoining.text(of: segments) }
    }
    return nil
  }

  /// The entries so far; tool-call arguments that are not (yet) JSON are left as text.
  package var entries: [Transcript.Entry] {
    drafts.map { draft in
      switch draft {
      case .response(let id, let segments, let metadata):
        .response(Transcript.Response(id: id, metadata: metadata, segments: segments))
      case .reasoning(let id, let segments, let signature, let metadata):
        .reasoning(Transcript.Reasoning(id: id, metadata: metadata, segments: segments, signature: signature))
      case .toolCalls(let id, let calls):
        .toolCalls(
          Transcript.ToolCalls(
            id: id,
            calls.map { call in
              let arguments =
                (try? GeneratedContent(json: call.arguments)) ?? GeneratedContent(kind: .string(call.arguments))
              return Transcript.ToolCall(
                id: call.id, metadata: call.metadata, toolName: call.name, arguments: arguments)
            }))
      }
    }
  }

  /// The tool calls so far, in the order they opened, with their arguments as the model wrote them.
  package var toolCalls: [(id: String, name: String, arguments: String)] {
    drafts.flatMap { draft -> [(id: String, name: String, arguments: String)] in
      guard case .toolCalls(_, let calls) = draft else { return [] }
      return calls.map { ($0.id, $0.name, $0.arguments) }
    }
  }

  /// Whether the model has called a tool.
  var hasToolCalls: Bool {
    drafts.contains { if case .toolCalls(_, let calls) = $0 { !calls.isEmpty } else { false } }
  }

  /// Whether the newest answer stopped at `maximumResponseTokens`, as the local model's
  /// figures in its metadata say.
  var reachedMaximumTokens: Bool {
    for case .response(_, _, let metadata) in drafts.reversed() {
      return LocalModelFigures(metadata: metadata)?.reachedMaximumTokens ?? false
    }
    return false
  }

  /// The finished entries.
  /// - Throws: `GeneratedContent.ParsingError` when a tool call's arguments are not JSON.
  package func finishedEntries() throws -> [Transcript.Entry] {
    for case .toolCalls(_, let calls) in drafts {
      for call in calls {
        do {
          let arguments = try GeneratedContent(json: call.arguments)
          guard arguments.isComplete else { throw CallArgumentsError.incomplete }
        } catch {
          throw GeneratedContent.ParsingError(
            rawContent: call.arguments, underlyingError: error,
            debugDescription: "The arguments of the call to '\(call.name)' are not complete JSON: \(call.arguments)")
        }
      }
    }
    return entries
  }

  private enum CallArgumentsError: Error { case incomplete }

  // MARK: Events

  private mutating func apply(_ event: LanguageModelExecutorGenerationChannel.Response) {
    if case .updateUsage(let usage) = event.action {
      self.usage = usage
      return
    }
    let index = draftIndex(kind: .response, entryID: event.entryID) {
      .response(id: $0, segments: [], metadata: [:])
    }
    guard case .response(let id, var segments, var metadata) = drafts[index] else { return }
    switch event.action {
    case .appendText(let fragment):
      Self.append(fragment.content, to: &segments, segmentID: fragment.segmentID)
    case .replaceTextSegment(let replacement):
      Self.replace(with: replacement.content, in: &segments, segmentID: replacement.segmentID)
    case .updateCustomSegment(let custom):
      if let existing = segments.firstIndex(where: { $0.id == custom.id }) {
        segments[existing] = .custom(custom)
      } else {
        segments.append(.custom(custom))
      }
    case .addAttachmentSegment(let attachment):
      segments.append(.attachment(attachment))
    case .removeAttachmentSegment(let attachmentID):
      segments.removeAll { segment in
        if case .attachment(let attachment) = segment { return attachment.id == attachmentID }
        return false
      }
    case .updateMetadata(let update):
      metadata.merge(update.values) { _, new in new }
    case .updateUsage:
      break  // Read above, without an entry.
    }
    drafts[index] = .response(id: id, segments: segments, metadata: metadata)
  }

  private mutating func apply(_ event: LanguageModelExecutorGenerationChannel.Reasoning) {
    if case .updateUsage(let usage) = event.action {
      self.usage = usage
      return
    }
    let index = draftIndex(kind: .reasoning, entryID: event.entryID) {
      .reasoning(id: $0, segments: [], signature: nil, metadata: [:])
    }
    guard case .reasoning(let id, var segments, var signature, var metadata) = drafts[index] else { return }
    switch event.action {
    case .appendText(let fragment):
      Self.append(fragment.content, to: &segments, segmentID: fragment.segmentID)
    case .replaceTextSegment(let replacement):
      Self.replace(with: replacement.content, in: &segments, segmentID: replacement.segmentID)
    case .updateSignature(let update):
      signature = update.signature
    case .updateMetadata(let update):
      metadata.merge(update.values) { _, new in new }
    case .updateUsage:
      break  // Read above, without an entry.
    }
    drafts[index] = .reasoning(id: id, segments: segments, signature: signature, metadata: metadata)
  }

  private mutating func apply(_ event: LanguageModelExecutorGenerationChannel.ToolCalls) {
    if case .updateUsage(let usage) = event.action {
      self.usage = usage
      return
    }
    let index = draftIndex(kind: .toolCalls, entryID: event.entryID) { .toolCalls(id: $0, calls: []) }
    guard case .toolCalls(let id, var calls) = drafts[index] else { return }
    switch event.action {
    case .toolCall(let call):
      let position =
        calls.firstIndex { $0.id == call.id }
        ?? {
          calls.append(CallDraft(id: call.id, name: call.name, arguments: "", metadata: [:]))
          return calls.count - 1
        }()
      switch call.action {
      case .appendArguments(let fragment): calls[position].arguments += fragment.content
      case .updateMetadata(let update): calls[position].metadata.merge(update.values) { _, new in new }
      }
    case .removeToolCall(let callID):
      calls.removeAll { $0.id == callID }
    case .updateMetadata:
      break  // `Transcript.ToolCalls` has no metadata of its own.
    case .updateUsage:
      break  // Read above, without an entry.
    }
    drafts[index] = .toolCalls(id: id, calls: calls)
  }

  /// The draft an event of `kind` belongs to, created when there is none.
  private mutating func draftIndex(
    kind: LanguageModelExecutorGenerationChannel.EventKind.Value, entryID: String?, make: (String) -> Draft
  ) -> Int {
    if let entryID, let found = drafts.firstIndex(where: { $0.id == entryID && $0.kind == kind }) {
      return found
    }
    if entryID == nil, let last = drafts.last, last.kind == kind {
      return drafts.count - 1
    }
    drafts.append(make(entryID ?? UUID().uuidString))
    return drafts.count - 1
  }

  private static func append(_ text: String, to segments: inout [Transcript.Segment], segmentID: String?) {
    let index =
      segmentID.flatMap { id in segments.firstIndex { $0.id == id } }
      ?? (segmentID == nil ? segments.indices.last.flatMap { Self.isText(segments[$0]) ? $0 : nil } : nil)
    guard let index, case .text(var segment) = segments[index] else {
      segments.append(.text(Transcript.TextSegment(id: segmentID ?? UUID().uuidString, content: text)))
      return
    }
    segment.content += text
    segments[index] = .text(segment)
  }

  private static func replace(with text: String, in segments: inout [Transcript.Segment], segmentID: String?) {
    let index =
      segmentID.flatMap { id in segments.firstIndex { $0.id == id } }
      ?? (segmentID == nil ? segments.lastIndex(where: Self.isText) : nil)
    guard let index else {
      segments.append(.text(Transcript.TextSegment(id: segmentID ?? UUID().uuidString, content: text)))
      return
    }
    segments[index] = .text(Transcript.TextSegment(id: segments[index].id, content: text))
  }

  private static func isText(_ segment: Transcript.Segment) -> Bool {
    if case .text = segment { true } else { false }
  }
}
