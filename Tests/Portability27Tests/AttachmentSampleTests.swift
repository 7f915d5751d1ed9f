import Foundation
import FoundationModels
import Testing

/// The model's pick among the attached photos.
@Generable(name: "PhotoPick")
struct Pick {
  var photo: ImageReference
}

@Suite struct AttachmentSampleTests {
  let first = URL(fileURLWithPath: "/photos/dog.jpg")
  let second = URL(fileURLWithPath: "/photos/cat.jpg")

  @Test func attachmentsBecomeLabelledSegmentsAndAReferenceResolvesToTheImage() async throws {
    let session = LanguageModelSession(model: MyLanguageModel(capabilities: [.vision, .guidedGeneration]))
    let pick = try await session.respond(generating: Pick.self) {
      "Which photo shows a dog?"
      Attachment(imageURL: first).label("first")
      Attachment(imageURL: second, orientation: .up).label("second")
    }.content
    #expect(pick.photo.attachmentLabel == "first")
    #expect(pick.photo.resolve(in: session.transcript)?.url == first)
    guard case .prompt(let prompt) = session.transcript.first else {
      Issue.record("no prompt entry")
      return
    }
    let labels = prompt.segments.compactMap { segment -> String? in
      if case .attachment(let attachment) = segment { attachment.label } else { nil }
    }
    #expect(labels == ["first", "second"])
  }

  @Test func aNamedGenerableGoesByItsNameInSchemasAndTheTranscript() async throws {
    #expect(Pick.generationSchema.name == "PhotoPick")
    let json = String(decoding: try JSONEncoder().encode(Pick.generationSchema), as: UTF8.self)
    #expect(json.contains(#""title":"PhotoPick""#))
    #expect(json.contains("ImageReference"))
    let session = LanguageModelSession(model: MyLanguageModel(capabilities: [.vision, .guidedGeneration]))
    _ = try await session.respond(to: "Pick one", generating: Pick.self)
    guard case .response(let response) = session.transcript.last,
      case .structure(let structure) = response.segments.first
    else {
      Issue.record("no structured response")
      return
    }
    #expect(structure.schemaName == "PhotoPick")
  }

  @Test func aModelWithoutVisionRefusesAnImageAndKeepsTheSessionUsable() async throws {
    let session = LanguageModelSession(model: MyLanguageModel())
    await #expect(throws: LanguageModelError.self) {
      try await session.respond {
        "What is in this photo?"
        Attachment(imageURL: first)
      }
    }
    #expect(session.transcript.isEmpty)
    #expect(try await session.respond(to: "a b").content == "b a")
  }

  @Test func aReferenceToAnUnknownLabelResolvesToNothing() throws {
    let reference = try ImageReference(GeneratedContent(json: #"{"attachmentLabel":"third"}"#))
    #expect(reference.resolve(in: Transcript()) == nil)
  }
}
