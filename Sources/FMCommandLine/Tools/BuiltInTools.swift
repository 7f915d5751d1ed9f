import Foundation
import FoundationModels

/// The tools `fm chat --tools` and `fm respond --tools` give the model: safe by construction —
/// they read the clock, compute, and read text files under one folder, nothing else.
enum BuiltInTools {
  /// The tools for a command: files under the current folder, each call shown dimmed on the
  /// terminal (standard error when standard output is not one).
  static func all(context: CommandContext) -> [any Tool] {
    let screen = context.standardOutput.isTerminal ? context.standardOutput : context.standardError
    let folder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    return all(folder: folder) { line in screen.line(screen.styled(line, .dim)) }
  }

  /// The tools, reading files under `folder`, each call reported to `report` (a line when the
  /// call starts, one with its result).
  static func all(folder: URL, report: @escaping @Sendable (String) -> Void) -> [any Tool] {
    [
      ReportingTool(CurrentDateTool(), report: report),
      ReportingTool(CalculatorTool(), report: report),
      ReportingTool(ReadFileTool(folder: folder), report: report),
    ]
  }
}

/// The current date and time.
struct CurrentDateTool: Tool {
  @Generable struct Arguments {
    @Guide(description: "An IANA time zone such as Europe/Paris; empty for the local time zone")
    var timeZone: String
  }

  let name = "currentDate"
  let description = "Gives the current date, weekday and time, in the local or a given time zone."

  func call(arguments: Arguments) async throws -> String {
    let requested = arguments.timeZone.trimmingCharacters(in: .whitespaces)
    guard let zone = requested.isEmpty ? TimeZone.current : TimeZone(identifier: requested) else {
      return "Unknown time zone '\(requested)'; use an IANA name such as Europe/Paris."
    }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = zone
    formatter.dateFormat = "EEEE yyyy-MM-dd HH:mm:ss"
    return "\(formatter.string(from: Date())) (\(zone.identifier))"
  }
}

/// Arithmetic on numbers (`ArithmeticExpression`).
struct CalculatorTool: Tool {
  @Generable struct Arguments {
    @Guide(description: "An arithmetic expression: numbers, + - * / % ^ and parentheses, such as (2 + 3) * 4")
    var expression: String
  }

  let name = "calculate"
  let description = "Computes the value of an arithmetic expression exactly; use it for any calculation."

  func call(arguments: Arguments) async throws -> String {
    do {
      return ArithmeticExpression.format(try ArithmeticExpression.evaluate(arguments.expression))
    } catch {
      return "Cannot compute '\(arguments.expression)': \(error)"
    }
  }
}

/// A text file under one folder (the one `fm` was started in), never outside it.
struct ReadFileTool: Tool {
  @Generable struct Arguments {
    @Guide(description: "The file's path relative to the current folder, such as notes/todo.txt")
    var path: String
  }

  /// The most bytes returned; longer files are cut there.
  static let limit = 16_384

  let folder: URL
  let name = "readFile"
  let description = "Reads a text file in the current folder or below it."

  func call(arguments: Arguments) async throws -> String {
    switch resolve(arguments.path) {
    case .failure(let reason):
      return "Cannot read '\(arguments.path)': \(reason)."
    case .success(let file):
      guard let handle = try? FileHandle(forReadingFrom: file) else {
        return "Cannot read '\(arguments.path)': no such file."
      }
      defer { try? handle.close() }
      let data = (try? handle.read(upToCount: Self.limit + 1)) ?? Data()
      guard let text = String(data: data.prefix(Self.limit), encoding: .utf8), !data.contains(0) else {
        return "Cannot read '\(arguments.path)': not a text file."
      }
      return data.count > Self.limit ? text + "\n[cut at \(Self.limit) bytes]" : text
    }
  }

  struct Refusal: Error, CustomStringConvertible { let description: String }

  /// The regular file `path` names under the folder, symbolic links followed.
  func resolve(_ path: String) -> Result<URL, Refusal> {
    guard !path.isEmpty else { return .failure(Refusal(description: "no path")) }
    guard !path.hasPrefix("/"), !path.hasPrefix("~") else {
      return .failure(Refusal(description: "only paths relative to the current folder can be read"))
    }
    let root = folder.standardizedFileURL.resolvingSymlinksInPath().path
    let file = folder.appendingPathComponent(path).standardizedFileURL.resolvingSymlinksInPath()
    guard file.path.hasPrefix(root.hasSuffix("/") ? root : root + "/") else {
      return .failure(Refusal(description: "it is outside the current folder"))
    }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory) else {
      return .failure(Refusal(description: "no such file"))
    }
    guard !isDirectory.boolValue else { return .failure(Refusal(description: "it is a folder")) }
    return .success(file)
  }
}

/// A tool that reports each call: its name and arguments as it starts, then a short result.
struct ReportingTool<Base: Tool>: Tool where Base.Arguments: Generable, Base.Output == String {
  typealias Arguments = Base.Arguments
  typealias Output = String

  let base: Base
  let report: @Sendable (String) -> Void

  init(_ base: Base, report: @escaping @Sendable (String) -> Void) {
    self.base = base
    self.report = report
  }

  var name: String { base.name }
  var description: String { base.description }
  var parameters: GenerationSchema { base.parameters }

  func call(arguments: Arguments) async throws -> String {
    report("⚙ \(name) \(arguments.generatedContent.jsonString)")
    let output = try await base.call(arguments: arguments)
    let line = output.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
    report(
      "  → " + (line.count > 72 ? line.prefix(72) + "…" : line)
        + (output.contains("\n") && line.count <= 72 ? " …" : ""))
    return output
  }
}
