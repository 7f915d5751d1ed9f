import Foundation

/// A kind of content a prompt or instructions can attach, such as an image.
///
/// Matches FoundationModels 27 `AttachmentContent` (a marker protocol).
public protocol AttachmentContent {}

/// Content attached to a prompt or instructions, with an optional label the model and the app
/// refer to it by.
///
/// Matches FoundationModels 27 `Attachment`. An image attachment is `PromptRepresentable` and
/// `InstructionsRepresentable`, so it goes straight into a builder:
///
/// ```swift
/// try await session.respond {
///   "Which photo shows a dog?"
///   Attachment(imageURL: first).label("first")
///   Attachment(imageURL: second).label("second")
/// }
/// ```
///
/// It becomes an `.attachment` segment of the prompt entry. A model without the `.vision`
/// capability (the local model among them) refuses such a prompt with
/// `LanguageModelError.unsupportedCapability`.
public struct Attachment<Content> where Content: AttachmentContent {
  let content: Content
  let labelText: String?

  init(content: Content, label: String? = nil) {
    self.content = content
    labelText = label
  }

  /// A copy with `label` as its name.
  ///
  /// Matches FoundationModels 27 `Attachment.label(_:)`.
  public func label(_ label: String) -> Attachment<Content> {
    Attachment(content: content, label: label)
  }
}

/// An image as attachment content.
///
/// Matches FoundationModels 27 `ImageAttachmentContent` (opaque): here it holds the
/// `Transcript.ImageAttachment` the transcript records.
public struct ImageAttachmentContent: AttachmentContent, Sendable, Equatable {
  let image: Transcript.ImageAttachment
}

extension Attachment where Content == ImageAttachmentContent {
  /// An image in a file.
  ///
  /// Matches FoundationModels 27 `Attachment.init(imageURL:orientation:)`. Apple's `CGImage`,
  /// `CIImage` and `CVPixelBuffer` initialisers have no Linux counterpart.
  public init(imageURL: URL, orientation: CGImagePropertyOrientation? = nil) {
    self.init(
      content: ImageAttachmentContent(image: Transcript.ImageAttachment(imageURL: imageURL, orientation: orientation)))
  }

  /// An image from encoded bytes (PNG, JPEG…).
  ///
  /// Our addition: Linux has no `CGImage`; guard its use with `#if os(Linux)` in code shared with
  /// Apple's platforms.
  public init(data: Data, contentType: String? = nil, orientation: CGImagePropertyOrientation? = nil) {
    self.init(
      content: ImageAttachmentContent(
        image: Transcript.ImageAttachment(data: data, contentType: contentType, orientation: orientation)))
  }

  private var segment: Transcript.Segment {
    .attachment(Transcript.AttachmentSegment(content: .image(content.image), label: labelText))
  }
}

extension Attachment: PromptRepresentable where Content == ImageAttachmentContent {
  /// Matches FoundationModels 27 `Attachment.promptRepresentation`: one attachment segment.
  public var promptRepresentation: Prompt { Prompt(segments: [segment]) }
}

extension Attachment: InstructionsRepresentable where Content == ImageAttachmentContent {
  /// Matches FoundationModels 27 `Attachment.instructionsRepresentation`: one attachment segment.
  public var instructionsRepresentation: Instructions { Instructions(segments: [segment]) }
}
