import Foundation
import GuidedDecoding

/// The constraint's own work per token inside a value nested 1, 10 and 50 levels deep, with no
/// model: the payload of `fm-bench depth` (40 items of a word and a count, under `depth`
/// levels of required `{"n":…}`) walked token by token through a fresh matcher, timing what
/// the decode loop asks for each token — the mask, the forced bytes, the closing reserve — and
/// accepting the token.
///
/// The way down and back up is forced text, accepted as bytes as the decode loop accepts it (as
/// tokens, `{"n":` fifty times over would be a loop to end). One JSON line per depth: median and
/// mean per payload token, cold states included (each run starts from a new automaton).
struct DepthRun {
  var vocabulary: Vocabulary
  var runs: Int

  static let depths = [1, 10, 50]

  static func schema(depth: Int, items: Int) -> String {
    let item =
      #"{"type":"object","properties":{"word":{"type":"string","maxLength":16},"count":{"type":"integer","minimum":0,"maximum":999}},"required":["word","count"],"additionalProperties":false}"#
    var schema =
      #"{"type":"object","properties":{"items":{"type":"array","items":"# + item
      + #","minItems":\#(items),"maxItems":\#(items)}},"required":["items"],"additionalProperties":false}"#
    for _ in 1..<depth {
      schema = #"{"type":"object","properties":{"n":"# + schema + #"},"required":["n"],"additionalProperties":false}"#
    }
    return schema
  }

  func run() {
    let items = 40
    let words = ["apple", "river", "stone", "cloud", "maple", "tiger", "ocean", "piano"]
    let payload = (0..<items).map { #"{"word":"\#(words[$0 % words.count])\#($0)","count":\#($0 * 37 % 1000)}"# }
    for depth in Self.depths {
      let prefix = String(repeating: #"{"n":"#, count: depth - 1) + #"{"items":["#
      let suffix = "]}" + String(repeating: "}", count: depth - 1)
      let body = vocabulary.greedyTokenize(Array(payload.joined(separator: ",").utf8)) ?? []
      var perToken = Samples()
      for _ in 0..<max(runs, 1) {
        guard let automaton = try? ConstraintAutomaton(jsonSchema: Self.schema(depth: depth, items: items)) else {
          print("maskbench: the depth schema does not compile")
          return
        }
        let matcher = TokenMatcher(automaton: automaton, vocabulary: vocabulary)
        try? matcher.accept(bytes: Array(prefix.utf8))
        for token in body {
          let (_, seconds) = measure { () -> Int in
            let mask = matcher.allowedTokens()
            let forced = matcher.forcedBytes()
            let reserve = matcher.closingLength() ?? 0
            try? matcher.accept(token: token)
            return mask.count + forced.count + reserve
          }
          perToken.append(seconds * 1e6)
        }
        try? matcher.accept(bytes: Array(suffix.utf8))
        if !matcher.isComplete { print("maskbench: the depth \(depth) payload was not accepted") }
      }
      print(
        jsonLine([
          ("figure", "depth"), ("depth", depth), ("vocabulary", vocabulary.count), ("payloadTokens", body.count),
          ("runs", runs), ("median_us", perToken.percentile(50)), ("mean_us", perToken.mean),
          ("p99_us", perToken.percentile(99)),
        ]))
    }
  }
}
