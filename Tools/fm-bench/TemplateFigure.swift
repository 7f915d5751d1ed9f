import Dispatch
import FMTestSupport
import Foundation
import InferenceEngine

/// P9 per template: rendering a ~4,000-token conversation with each chat template of the pinned
/// llama.cpp (`ChatTemplateFiles`) and tokenizing it with the loaded model's
/// vocabulary, in ms, as a session does every turn.
///
/// The figure is the slowest template's median; the notes give the median over templates and
/// the three slowest. Templates that raise for this conversation (roles they do not take) are
/// counted apart.
struct TemplateFigure {
  let model: LlamaModel
  let runs: Int

  /// A system message and alternating turns, about `tokens` long with this vocabulary.
  func conversation(ofAtLeast tokens: Int) -> [ChatMessage] {
    var messages = [ChatMessage(role: .system, content: "You are a helpful assistant who answers in detail.")]
    var turn = 0
    while model.tokenize(messages.map(\.content).joined(separator: "\n"), parseSpecial: false).count < tokens {
      let paragraph = String(
        repeating: "Rivers carry water from the mountains to the sea, shaping valleys and plains (\(turn)). ",
        count: 6)
      messages.append(ChatMessage(role: .user, content: "Tell me more, part \(turn). \(paragraph)"))
      messages.append(ChatMessage(role: .assistant, content: paragraph))
      turn += 1
    }
    messages.append(ChatMessage(role: .user, content: "And finally?"))
    return messages
  }

  func measure() throws -> FigureReport {
    let names = try ChatTemplateFiles.names()
    let messages = conversation(ofAtLeast: 4000)
    var medians: [(name: String, ms: Double, renderMs: Double)] = []
    var raising: [String] = []
    var tokens = 0
    for name in names {
      let source = try ChatTemplateFiles.source(name)
      let template = try model.makeChatTemplate(source: source)
      guard let first = try? template.render(messages) else {
        raising.append(name)
        continue
      }
      tokens = max(tokens, model.tokenize(first).count)
      var times = Measurements()
      var renderTimes = Measurements()
      for _ in 0..<max(runs, 10) {
        let start = DispatchTime.now()
        let rendered = try template.render(messages)
        renderTimes.append(elapsed(since: start) * 1000)
        _ = model.tokenize(rendered)
        times.append(elapsed(since: start) * 1000)
      }
      medians.append((name, times.median, renderTimes.median))
    }
    var ours = Measurements()
    for entry in medians { ours.append(entry.ms) }
    let slowest = medians.sorted { $0.ms > $1.ms }.prefix(3)
    return FigureReport(
      id: "P9-templates", figure: "render + tokenize a ~4,000-token conversation, per chat template (slowest median)",
      unit: "ms", ours: ours, reference: nil, ratio: nil, target: "< 5 ms", pass: ours.max < 5,
      notes: [
        "templates": "\(medians.count) rendered, \(raising.count) raise for this conversation",
        "median_over_templates_ms": "\(Measurements.rounded(ours.median))",
        "slowest_ms": slowest.map {
          "\($0.name) \(Measurements.rounded($0.ms)) (rendering \(Measurements.rounded($0.renderMs)))"
        }.joined(separator: "; "),
        "conversation_tokens": "\(tokens)", "raising": raising.joined(separator: ", "),
      ])
  }
}
