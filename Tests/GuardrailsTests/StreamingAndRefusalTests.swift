import Testing

@testable import Guardrails

@Suite struct StreamingCheckpointsTests {
  @Test func checksAtSentenceEndsAndEveryIntervalReadingOnlyTheTail() {
    var checkpoints = StreamingCheckpoints(interval: 20, tailLength: 30)
    #expect(checkpoints.textToCheck("Hello") == nil)
    #expect(checkpoints.textToCheck("Hello there.") == "Hello there.")
    #expect(checkpoints.textToCheck("Hello there.") == nil, "nothing new")
    #expect(checkpoints.textToCheck("Hello there. And") == nil)
    let long = "Hello there. And then a long clause without any end"
    let tail = checkpoints.textToCheck(long)
    #expect(tail == long.suffix(30))
  }

  @Test func aSentenceEndInsideANewChunkCounts() {
    var checkpoints = StreamingCheckpoints(interval: 100, tailLength: 100)
    _ = checkpoints.textToCheck("One")
    #expect(checkpoints.textToCheck("One. Two") != nil)
  }
}

@Suite struct RefusalDetectorTests {
  @Test(arguments: [
    "I'm sorry, but I can't help with that.", "I cannot assist with this request.", "As an AI, I cannot do that.",
    "Sorry, I won't provide that.", "I must decline.", "Unfortunately, I am unable to help with your request.",
    "I apologize, but I cannot comply.",
  ])
  func refusalsAreFound(_ text: String) {
    #expect(RefusalDetector.isRefusal(text))
  }

  @Test(arguments: [
    "I'm sorry I missed your party.", "Sorry for the late reply, here is the plan.", "Oslo", "A calm day by the sea.",
    "The cat cannot climb the tree.", "I can help with that: here are three ideas.",
  ])
  func otherTextIsNot(_ text: String) {
    #expect(!RefusalDetector.isRefusal(text))
  }
}
