import Foundation
import SchemaCorpus
import Testing

@testable import GuidedDecoding

/// A sample of the maskbench-dev corpus (the full run is the `maskbench` program): every
/// schema compiles or fails with a `SchemaError`, and every accepted schema classifies all
/// its labelled instances correctly, byte by byte and token by token, under the standard's
/// language (`.standard`: generation's own options leave out members only the default allows).
///
///     FM_MASKBENCH_CORPUS=/path/to/maskbench-dev swift test --filter CorpusSampleTests
@Suite struct CorpusSampleTests {
  @Test(
    .enabled(
      if: maskbenchDirectory != nil,
      "FM_MASKBENCH_CORPUS is unset; set it to the maskbench-dev folder to run the corpus sample"))
  func sampleHasFullInstanceAccuracy() throws {
    let directory = try #require(maskbenchDirectory)
    // Set but wrong is a mistake to report, not a reason to skip.
    let contents = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
    let names = try #require(contents, "FM_MASKBENCH_CORPUS=\(directory.path) is not a readable folder")
      .filter { $0.hasSuffix(".json") }.sorted()
    let sample = stride(from: 0, to: names.count, by: max(1, names.count / 150)).map { names[$0] }
    let vocabulary = smallVocabulary()
    let options = JSONSchemaParser.Options(acceptsUnknownKeywords: true)
    var accepted = 0
    var instances = 0
    for name in sample {
      let data = try #require(FileManager.default.contents(atPath: directory.appendingPathComponent(name).path))
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
    #expect(accepted > sample.count / 2)
    #expect(instances > 0)
  }
}
