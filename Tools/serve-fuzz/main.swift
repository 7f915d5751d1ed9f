import Foundation

/// serve-fuzz: the fault and load runs of `fm serve` that bench/README.md records.
///
/// Both talk to a server that is already running (start it with `fm serve MODEL --port N`).
///
///     serve-fuzz fuzz --port N [--model ID] [--count 1000] [--seed 1] [--connections 8]
///     serve-fuzz load --port N [--model ID] [--clients 32] [--seconds 120] [--max-tokens 24]
///
/// Prints one JSON object with the counts on stdout; exits 1 when the fuzz run finds a crash,
/// a hang or a malformed request not answered with a 4xx, or the load run a bad stream.
var arguments = Array(CommandLine.arguments.dropFirst())
guard let mode = arguments.first, ["fuzz", "load"].contains(mode) else {
  FileHandle.standardError.write(
    Data("usage: serve-fuzz fuzz|load --port N [options] (see Tools/serve-fuzz/main.swift)\n".utf8))
  exit(64)
}
arguments.removeFirst()
var options: [String: String] = [:]
while arguments.count >= 2, arguments[0].hasPrefix("--") {
  options[String(arguments[0].dropFirst(2))] = arguments[1]
  arguments.removeFirst(2)
}
guard arguments.isEmpty, let port = options["port"].flatMap(Int.init) else {
  FileHandle.standardError.write(Data("serve-fuzz: give --port N, and options as --name value\n".utf8))
  exit(64)
}
let model = options["model"] ?? "smollm2-135m"

func printJSON(_ object: [String: Any]) {
  let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
  print(String(decoding: data, as: UTF8.self))
}

func keyed(_ counts: [Int: Int]) -> [String: Int] {
  Dictionary(uniqueKeysWithValues: counts.map { (String($0.key), $0.value) })
}

if mode == "fuzz" {
  let run = FuzzRun(
    port: port, model: model, count: options["count"].flatMap(Int.init) ?? 1000,
    seed: options["seed"].flatMap(UInt64.init) ?? 1, connections: options["connections"].flatMap(Int.init) ?? 8)
  let started = Date()
  let tally = await run.run()
  let non4xx = tally.statuses.filter { !(400..<500).contains($0.key) }.values.reduce(0, +)
  printJSON([
    "figure": "serve-fuzz", "requests": run.count, "seed": run.seed, "statuses": keyed(tally.statuses),
    "statusesOfPossiblyValid": keyed(tally.statusesOfPossiblyValid), "closedWithoutAnswer": tally.closedWithoutAnswer,
    "hangs": tally.hangs, "crashed": tally.crashed, "malformedNot4xx": non4xx, "kinds": tally.kinds,
    "non4xxExamples": tally.non4xxExamples, "seconds": Int(Date().timeIntervalSince(started)),
  ])
  exit(tally.crashed || tally.hangs > 0 || non4xx > 0 || tally.closedWithoutAnswer > 0 ? 1 : 0)
} else {
  let run = LoadRun(
    port: port, model: model, clients: options["clients"].flatMap(Int.init) ?? 32,
    seconds: options["seconds"].flatMap(Double.init) ?? 120,
    maximumTokens: options["max-tokens"].flatMap(Int.init) ?? 24)
  let tally = await run.run()
  printJSON([
    "figure": "serve-load", "clients": run.clients, "seconds": run.seconds, "streams": tally.streams,
    "wellFormed": tally.wellFormed, "failures": tally.failures, "completionTokens": tally.completionTokens,
    "longestStreamSeconds": (tally.longestSeconds * 10).rounded() / 10,
  ])
  exit(tally.failures.isEmpty && tally.streams > 0 ? 0 : 1)
}
