import FMTestSupport
import Foundation
import Testing

@testable import InferenceEngine

/// The attention kernel a context uses: measured on this machine for the model's shape, or named
/// by the configuration (`smollm2-135m` for the real model).
@Suite struct AttentionKernelTests {
  static let smolLM2 = AttentionKernel.Shape(heads: 9, keyValueHeads: 3, keySize: 64, valueSize: 64)

  /// The plain kernel is chosen only when it is faster by more than the margin; flash attention,
  /// which needs less memory, otherwise.
  @Test func thePlainKernelIsChosenOnlyWhenClearlyFaster() {
    #expect(AttentionKernel.choose(flash: 1.0, plain: 0.5) == .plain)
    #expect(AttentionKernel.choose(flash: 1.0, plain: 1.0 / AttentionKernel.margin + 0.01) == .flash)
    #expect(AttentionKernel.choose(flash: 1.0, plain: 1.2) == .flash)
    #expect(AttentionKernel.choose(flash: .infinity, plain: 1.0) == .plain)
    #expect(AttentionKernel.choose(flash: 1.0, plain: .infinity) == .flash)
  }

  /// Both kernels run on ggml's CPU backend for the shape, each in a finite time that grows with
  /// the rows and the cache's length.
  @Test func bothKernelsAreTimedForAShape() {
    for kernel in AttentionKernel.allCases {
      let one = AttentionTrial(shape: Self.smolLM2, queries: 1, depth: 256, threads: 1).seconds(kernel)
      let many = AttentionTrial(shape: Self.smolLM2, queries: 64, depth: 1024, threads: 1).seconds(kernel)
      #expect(one.isFinite && one > 0, "\(kernel)")
      #expect(many.isFinite && many > one, "\(kernel)")
    }
  }

  /// A shape without heads to time (a recurrent model's) or with heads that do not share cache
  /// heads evenly keeps llama.cpp's default, flash attention, untimed.
  @Test func aShapeWithoutAttentionToTimeKeepsFlashAttention() {
    for shape in [
      AttentionKernel.Shape(heads: 0, keyValueHeads: 0, keySize: 0, valueSize: 0),
      AttentionKernel.Shape(heads: 9, keyValueHeads: 2, keySize: 64, valueSize: 64),
    ] {
      #expect(AttentionKernel.measured(for: shape, threads: 1) == .flash)
      #expect(AttentionKernel.known(for: shape, threads: 1) == nil)
      #expect(AttentionTrial(shape: shape, queries: 1, depth: 64, threads: 1).seconds(.plain) == .infinity)
    }
  }

  /// The choice is measured once per shape and thread count in a process, and kept.
  @Test func theChoiceIsMeasuredOnceAndKept() {
    let shape = AttentionKernel.Shape(heads: 2, keyValueHeads: 1, keySize: 32, valueSize: 32)
    #expect(AttentionKernel.known(for: shape, threads: 1) == nil)
    let first = AttentionKernel.measured(for: shape, threads: 1, file: nil)
    #expect(AttentionKernel.known(for: shape, threads: 1) == first)
    #expect(AttentionKernel.known(for: shape, threads: 2) == nil)
  }

  /// A choice is kept in the file, keyed by shape, threads, CPU and build: a later process reads
  /// it there instead of timing the kernels again, and one measured here is written for the next.
  @Test func choicesAreKeptInTheFileForLaterProcesses() throws {
    let file = MeasurementFile(
      url: FileManager.default.temporaryDirectory.appendingPathComponent("attention-\(UUID().uuidString)"))
    defer { try? FileManager.default.removeItem(at: file.url) }
    let stored = AttentionKernel.Shape(heads: 6, keyValueHeads: 2, keySize: 32, valueSize: 32)
    let other = AttentionKernel.Shape(heads: 4, keyValueHeads: 2, keySize: 32, valueSize: 32)
    file.append("plain", for: AttentionKernel.choiceKey(for: stored, threads: 1))
    file.append("flash", for: AttentionKernel.choiceKey(for: other, threads: 1))
    #expect(AttentionKernel.measured(for: stored, threads: 1, file: file) == .plain)
    #expect(AttentionKernel.measured(for: other, threads: 1, file: file) == .flash)
    let measured = AttentionKernel.Shape(heads: 2, keyValueHeads: 2, keySize: 16, valueSize: 16)
    let choice = AttentionKernel.measured(for: measured, threads: 1, file: file)
    let choices = file.values()
    #expect(choices.count == 3)
    #expect(choices[AttentionKernel.choiceKey(for: measured, threads: 1)] == choice.rawValue)
    #expect(
      AttentionKernel.choiceKey(for: measured, threads: 1) != AttentionKernel.choiceKey(for: measured, threads: 2))
  }

  /// The model's shape comes from its metadata, and its contexts use the measured kernel unless
  /// the configuration names one; a context with either kernel evaluates and gives logits.
  @Test func contextsUseTheMeasuredKernelUnlessOneIsNamed() throws {
    let model = try LlamaModel(path: TestModels.smolLM2Path)
    #expect(model.attentionShape == Self.smolLM2)
    let measured = AttentionKernel.measured(for: model.attentionShape, threads: 1)
    let tokens = model.tokenize("A gull circles the harbour", parseSpecial: false)
    let flag = CancellationFlag()
    for named in [nil] + AttentionKernel.allCases.map(Optional.some) {
      let configuration = ContextConfiguration(contextSize: 64, batchSize: 32, threads: 1, attentionKernel: named)
      let backend = try LlamaTokenBackend(model: model, configuration: configuration)
      #expect(backend.context.attentionKernel == (named ?? measured))
      let logits = try backend.evaluate(tokens[...], cancellation: flag)
      #expect(logits.count == model.vocabularySize && logits.allSatisfy(\.isFinite))
    }
  }
}
