import Foundation
import SchemaCorpus
import Testing
@testable import GuidedDecoding

/// A sample of the maskbench-dev corpus (the full run is the `maskbench` program): every
/// schema compiles or fails with a `SchemaError`, and every accepted schema classifies all
/// its labelled instances correctly, byte by byte and token by token.
@Suite struct CorpusSampleTests {
  @Test(.enabled(if: maskbenchDirectory != nil, "../shared/data/maskbench-dev is absent; corpus sample skipped"))
  func sampleHasFullInstanceAccuracy() throws {
    let directory = try #require(maskbenchDirectory)
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }.sorted()
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
        automaton = try ConstraintAutomaton(document)
      } catch is SchemaError {
        continue
      }
      accepted += 1
      for outcome in testCase.evaluate(document: document, automaton: automaton, vocabulary: vocabulary) {
        instances += 1
        #expect(outcome.isCorrect, "\(name): valid=\(outcome.isValid) bytes=\(outcome.acceptedByBytes) tokens=\(outcome.acceptedByTokens)")
      }
    }
    #expect(accepted > sample.count / 2)
    #expect(instances > 0)
  }
}
