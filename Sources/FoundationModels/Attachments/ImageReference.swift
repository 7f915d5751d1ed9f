import Foundation

/// A reference from generated output to an image of the transcript, by the image's label.
///
/// Matches FoundationModels 27 `ImageReference`: a generable object with one `attachmentLabel`
/// string, so structured output can point at an input image.
///
/// ```swift
/// @Generable struct Pick { var photo: ImageReference }
/// let pick = try await session.respond(generating: Pick.self) {
///   "Which photo shows a dog?"
///   Attachment(imageURL: a).label("first")
///   Attachment(imageURL: b).label("second")
/// }.content
/// let image = pick.photo.resolve(in: session.transcript)
/// ```
///
/// Like Apple's, it has no public memberwise initializer: values come from generated content.
@Generable
public struct ImageReference: Sendable, Equatable {
  /// The label of the attachment this refers to.
  public let attachmentLabel: String

  /// The image of the last attachment segment in `transcript` labelled `attachmentLabel`, or nil
  /// when there is none.
  ///
  /// Matches FoundationModels 27 `ImageReference.resolve(in:)`. The last one wins when a label
  /// is used twice, since a later prompt's image is the one a later answer talks about.
  public func resolve(in transcript: Transcript) -> Transcript.ImageAttachment? {
    for entry in transcript.reversed() {
      for case .attachment(let attachment) in entry.segments.reversed() where attachment.label == attachmentLabel {
        if case .image(let image) = attachment.content { return image }
      }
    }
    return nil
  }
}
