import Testing

@testable import FoundationModels

@Suite struct PromptBuilderTests {
  @Test func joinsLinesWithNewlines() {
    let prompt = Prompt {
      "Write a haiku."
      "About the sea."
    }
    #expect(prompt.text == "Write a haiku.\nAbout the sea.")
    #expect(prompt.segments.count == 1)
  }

  @Test(arguments: [true, false])
  func conditionals(rhyme: Bool) {
    let prompt = Prompt {
      "Write a poem."
      if rhyme {
        "Your response MUST rhyme!"
      }
      if rhyme {
        "A"
      } else {
        "B"
      }
    }
    #expect(prompt.text == (rhyme ? "Write a poem.\nYour response MUST rhyme!\nA" : "Write a poem.\nB"))
  }

  @Test func loopsArraysAndNesting() {
    let topics = ["sea", "sky"]
    let prompt = Prompt {
      for topic in topics {
        "Topic: \(topic)"
      }
      ["x", "y"]
      Prompt("nested")
      if #available(macOS 15, *) {
        "available"
      }
    }
    #expect(prompt.text == "Topic: sea\nTopic: sky\nx\ny\nnested\navailable")
  }

  @Test func emptyBuilderIsEmpty() {
    let prompt = Prompt {}
    #expect(prompt.segments.isEmpty)
    #expect(prompt.text == "")
  }

  @Test func instructionsBuilder() throws {
    let strict = true
    let instructions = Instructions {
      "You are a librarian."
      if strict { "Answer in one sentence." }
      ["Be kind.", "Be brief."]
    }
    #expect(instructions.text == "You are a librarian.\nAnswer in one sentence.\nBe kind.\nBe brief.")
    #expect(Instructions("plain").text == "plain")
    struct Failure: Error {}
    #expect(throws: Failure.self) {
      try Instructions { () throws -> Instructions in throw Failure() }
    }
  }

  @Test func generableContentBecomesAStructureSegment() {
    let book = Book(title: "Dune", year: 1965, genre: .fiction)
    let prompt = Prompt {
      "Describe this book:"
      book
      "Thanks."
    }
    #expect(prompt.segments.count == 3)
    guard case .structure(let structure) = prompt.segments[1] else {
      Issue.record("expected a structure segment")
      return
    }
    #expect(structure.schemaName == "Book")
    #expect(structure.content == book.generatedContent)
    #expect(prompt.text.hasPrefix("Describe this book:\n{\"title\":\"Dune\""))
    #expect(prompt.text.hasSuffix("}\nThanks."))
  }

  @Test func stringAndPromptRepresentations() {
    #expect(Prompt("hi").text == "hi")
    #expect("hi".promptRepresentation.text == "hi")
    #expect(["a", "b"].instructionsRepresentation.text == "a\nb")
    #expect(Prompt(Prompt("x")).text == "x")
  }
}
