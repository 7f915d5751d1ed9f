/// How builder components become transcript segments and model text.
///
/// Apple does not document the separator its builders use. We join components with a single
/// newline (`"\n"`): each builder line of `Prompt { "A"; "B" }` reads as its own line, which is
/// what a reader of the builder expects. Adjacent text components merge into one text segment
/// (so a plain builder prompt is one `Transcript.TextSegment`); structured (Generable) content
/// stays a separate `Transcript.StructuredSegment`, and renders as its compact JSON.
enum SegmentJoining {
  /// Concatenates the segments of several components, merging adjacent text with `"\n"`.
  static func join(_ parts: [[Transcript.Segment]]) -> [Transcript.Segment] {
    var result: [Transcript.Segment] = []
    for segment in parts.joined() {
      if case .text(let next) = segment, case .text(let previous)? = result.last {
        result[result.count - 1] = .text(
          Transcript.TextSegment(id: previous.id, content: previous.content + "\n" + next.content))
      } else {
        result.append(segment)
      }
    }
    return result
  }

  /// The model-facing text of segments: text as is, structures as compact JSON, one per line.
  static func text(of segments: [Transcript.Segment]) -> String {
    segments.map(\.renderedText).joined(separator: "\n")
  }
}

extension Transcript.Segment {
  /// The text the model reads for this segment: its text, its content's compact JSON, an
  /// attachment's placeholder, or a custom segment's description.
  var renderedText: String {
    switch self {
    case .text(let text): return text.content
    case .structure(let structure): return structure.content.jsonString
    case .attachment(let attachment): return attachment.description
    case .custom(let custom): return custom.description
    }
  }
}
