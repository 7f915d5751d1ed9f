import Foundation
import SchemaCorpus
import Testing

@testable import GuidedDecoding

/// The maskbench-dev corpus (the full run with figures is the `maskbench` program): every
/// schema compiles or fails with a `SchemaError`, and every accepted schema classifies all its
/// labelled instances correctly, byte by byte and token by token, under the standard's
/// language (`.standard`: generation's own options leave out members only the default allows).
///
/// The normal test run checks an evenly spaced sample (`MaskbenchCorpus.sampleStride`) of
/// `../shared/data/maskbench-dev`, where the development data lives, and skips, saying so,
/// where it is absent; the whole corpus:
///
///     FM_MASKBENCH_CORPUS=../shared/data/maskbench-dev swift test --filter CorpusSampleTests
@Suite struct CorpusSampleTests {
  @Test(
    .enabled(
      if: MaskbenchCorpus.selected != nil,
      "no maskbench-dev corpus: ../shared/data/maskbench-dev is absent and FM_MASKBENCH_CORPUS is unset"))
  func everyLabelledInstanceIsClassifiedCorrectly() throws {
    let corpus = try #require(MaskbenchCorpus.selected)
    // Set but wrong is a mistake to report, not a reason to skip.
    let readable = try? corpus.schemaFiles()
    let files = try #require(readable, "\(corpus.directory.path) is not a readable folder")
    let vocabulary = smallVocabulary()
    let options = JSONSchemaParser.Options(acceptsUnknownKeywords: true)
    var accepted = 0
    var instances = 0
    for name in files {
      let data = try #require(
        FileManager.default.contents(atPath: corpus.directory.appendingPathComponent(name).path))
      let testCase = try SchemaTestCase(fileContents: data)
      let document: SchemaDocument
      let automaton: ConstraintAutomaton
      do {
        document = try JSONSchemaParser(options: options).parse(testCase.schema)
        automaton = try ConstraintAutomaton(document, options: .standard)
      } catch is SchemaError {
        continue
      }
      accepted += 1
      for outcome in testCase.evaluate(document: document, automaton: automaton, vocabulary: vocabulary) {
        instances += 1
        #expect(
          outcome.isCorrect,
          "\(name): valid=\(outcome.isValid) bytes=\(outcome.acceptedByBytes) tokens=\(outcome.acceptedByTokens)")
      }
    }
    #expect(accepted > files.count / 2)
    #expect(instances > 0)
  }
}
