import FMTestSupport
import Foundation
import JSON
import Testing

@testable import InferenceEngine

/// Every template of the pinned llama.cpp renders byte for byte as Python's jinja2 renders it
/// the way Hugging Face's `transformers` does (`scripts/render-chat-templates.py`), over the
/// conversations of `ParityConversation.all`, or is listed in `knownDifferences` with why.
@Suite struct TemplateParityTests {
  /// Templates whose rendering differs from jinja2's, with the construct that differs. In each,
  /// jinja2 raises where llama.cpp's engine renders (so `transformers` cannot render these
  /// conversations with these templates at all): a rule of transformers' sandbox or a limit of
  /// Python's `json`, not of the language, which `jinja2_semantics.cpp` follows.
  static let knownDifferences: [String: String] = [
    "Kimi-K2-Instruct.jinja":
      "calls list.append, which transformers' ImmutableSandboxedEnvironment forbids (SecurityError); llama.cpp's engine allows it",
    "Kimi-K2-Thinking.jinja":
      "calls list.append, which transformers' ImmutableSandboxedEnvironment forbids (SecurityError); llama.cpp's engine allows it",
    "llama-cpp-deepseek-r1.jinja":
      "`tools | map(...) | tojson`: Python's json.dumps cannot write jinja2's map generator (TypeError); llama.cpp's map gives a list",
  ]
  static let now = Date(timeIntervalSince1970: 1_700_000_000)

  struct Outcome: Equatable {
    var text: String?
    var error: String?
    /// The same text, or both raised.
    func agrees(with other: Outcome) -> Bool { text == other.text && (error == nil) == (other.error == nil) }
  }

  /// Renders `items` (template source, context) with jinja2.
  static func jinja2(_ items: [(String, JSONValue)]) throws -> [Outcome] {
    let request = JSONValue.array(
      items.map { template, context in
        .object([
          .init(key: "template", value: .string(template)), .init(key: "context", value: context.unmarked),
          .init(key: "now", value: .number(ExactDecimal(Int(now.timeIntervalSince1970)))),
        ])
      })
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
        "scripts/render-chat-templates.py")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script.path]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    let writer = Thread {
      input.fileHandleForWriting.write(Data(request.compactText.utf8))
      try? input.fileHandleForWriting.close()
    }
    writer.start()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0, case .array(let results) = try JSONValue(parsing: data) else {
      throw EngineError(
        .invalidRequest, "render-chat-templates.py failed (is jinja2 installed? scripts/test installs it)")
    }
    return results.map { result in
      guard case .object(let members) = result else { return Outcome(text: nil, error: "no result") }
      let text = members.first { $0.key == "text" }.flatMap { if case .string(let s) = $0.value { s } else { nil } }
      let error = members.first { $0.key == "error" }.flatMap { if case .string(let s) = $0.value { s } else { nil } }
      return Outcome(text: text, error: error)
    }
  }

  @Test func everyTemplateRendersAsJinja2Does() async throws {
    let files = try ChatTemplateFiles.names()
    #expect(files.count >= 70)
    // And the test model's own template, from its GGUF.
    let smol = try #require(try await TestModels.smolLM2().chatTemplate?.source)
    let sources = try files.map { ($0, try ChatTemplateFiles.source($0)) } + [("smollm2-135m.gguf", smol)]
    let names = sources.map(\.0)
    var items: [(String, JSONValue)] = []
    var ours: [Outcome] = []
    for (_, source) in sources {
      let template = try? ChatTemplate(source: source, bosToken: "<s>", eosToken: "</s>")
      for conversation in ParityConversation.all {
        let context = try conversation.context(for: template, now: Self.now)
        items.append((source, context))
        guard let template else {
          ours.append(Outcome(text: nil, error: "does not parse"))
          continue
        }
        do {
          ours.append(Outcome(text: try template.render(context: context, now: Self.now).text, error: nil))
        } catch {
          ours.append(Outcome(text: nil, error: "\(error)"))
        }
      }
    }
    let theirs = try Self.jinja2(items)
    var identical = 0
    var differing: [String] = []
    let count = ParityConversation.all.count
    for (index, name) in names.enumerated() {
      let range = index * count..<(index + 1) * count
      let disagreements = range.filter { !ours[$0].agrees(with: theirs[$0]) }
      if disagreements.isEmpty {
        identical += 1
        #expect(Self.knownDifferences[name] == nil, "\(name) now renders as jinja2 does: take it off the list")
        continue
      }
      differing.append(name)
      let first = disagreements[0]
      let conversation = ParityConversation.all[first - range.lowerBound].name
      #expect(
        Self.knownDifferences[name] != nil,
        """
        \(name) differs from jinja2 on \(disagreements.count) of \(count) conversations, first '\(conversation)':
        ours:   \(ours[first].text.map { String(reflecting: $0) } ?? "error " + (ours[first].error ?? ""))
        jinja2: \(theirs[first].text.map { String(reflecting: $0) } ?? "error " + (theirs[first].error ?? ""))
        """)
    }
    print("template parity: \(identical) of \(names.count) identical; differing: \(differing.joined(separator: ", "))")
    #expect(identical >= names.count - Self.knownDifferences.count)
  }
}
