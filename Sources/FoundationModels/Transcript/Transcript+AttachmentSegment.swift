import Foundation

extension Transcript {
  /// An attachment in an entry's content, such as an image.
  ///
  /// Matches FoundationModels 27 `Transcript.AttachmentSegment`. `label` is the name the model
  /// and the app use to refer to it.
  public struct AttachmentSegment: Sendable, Identifiable, Equatable, CustomStringConvertible {
    public var id: String
    public var content: Attachment
    public var label: String?

    public init(id: String = UUID().uuidString, content: Attachment, label: String? = nil) {
      self.id = id
      self.content = content
      self.label = label
    }

    public var description: String {
      switch content {
      case .image(let image): "[image\(label.map { " \($0)" } ?? ""): \(image.url?.lastPathComponent ?? "data")]"
      }
    }
  }

  /// What an attachment holds.
  ///
  /// Matches FoundationModels 27 `Transcript.Attachment`.
  @nonexhaustive
  public enum Attachment: Sendable, Equatable {
    case image(ImageAttachment)
  }

  /// An image attachment.
  ///
  /// Matches FoundationModels 27 `Transcript.ImageAttachment` where Linux can: an image is a
  /// file URL or encoded bytes, since CoreGraphics, CoreImage and CoreVideo do not exist here
  /// (Apple's `CGImage`, `CIImage` and `CVPixelBuffer` initialisers and accessors are absent).
  /// `init(imageURL:orientation:)`, `url` and `orientation` are Apple's; `init(data:contentType:
  /// orientation:)`, `data` and `contentType` are our addition, for providers that upload bytes
  /// (guard their use with `#if os(Linux)`).
  public struct ImageAttachment: Sendable, Equatable {
    /// The image's file, when it was created from one.
    public let url: URL?
    /// How the image is oriented.
    public let orientation: CGImagePropertyOrientation
    /// The encoded image (PNG, JPEG…), when it was created from bytes.
    ///
    /// Our addition.
    public let data: Data?
    /// The media type of `data` (`image/png`), when known.
    ///
    /// Our addition.
    public let contentType: String?

    /// An image in a file.
    public init(imageURL: URL, orientation: CGImagePropertyOrientation? = nil) {
      url = imageURL
      self.orientation = orientation ?? .up
      data = nil
      contentType = nil
    }

    /// An image from encoded bytes.
    ///
    /// Our addition (Linux has no CGImage).
    public init(data: Data, contentType: String? = nil, orientation: CGImagePropertyOrientation? = nil) {
      url = nil
      self.orientation = orientation ?? .up
      self.data = data
      self.contentType = contentType
    }
  }
}

#if !canImport(ImageIO)
  /// The orientation of an image, with the case names of ImageIO's type of the same name,
  /// which Linux lacks.
  ///
  /// Our stand-in, so code that names an orientation compiles unchanged.
  public enum CGImagePropertyOrientation: UInt32, Sendable, Equatable, Hashable {
    case up = 1
    case upMirrored
    case down
    case downMirrored
    case leftMirrored
    case right
    case rightMirrored
    case left
  }
#endif
