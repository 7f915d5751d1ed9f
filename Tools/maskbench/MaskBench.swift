import Foundation
import GuidedDecoding
import SchemaCorpus

/// The maskbench-dev corpus run: schema acceptance, instance accuracy per subset, and the
/// P6 (mask time) and P7 (compile time) figures, each printed as one JSON line.
struct MaskBench {
  /// The maskbench-dev folder (`--corpus DIR`); the corpus run needs it, the suite run does not.
  var corpusDirectory: URL?
  var limit: Int?
  var p6Schemas = 100
  var vocabularySize = 151_936
  var verbose = false
  /// Random generations per accepted schema (`--fuzz N`); 0 skips the fuzz run.
  var fuzzRuns = 0
  /// A GGUF file whose tokenizer vocabulary replaces the synthetic one for P6.
  var ggufPath: String?
  /// Runs of the model-free depth figure (`--depth N`); 0 skips it.
  var depthRuns = 0
  /// When set, run the JSON-Schema-Test-Suite in this folder instead of the corpus.
  var suiteDirectory: URL?
  /// Keywords outside every JSON Schema vocabulary are annotations here (validators ignore
  /// them, and the corpus labels come from validators); `--strict` refuses them, and every
  /// line also reports the strict count.
  var options = JSONSchemaParser.Options(acceptsUnknownKeywords: true)

  static let subsets = ["Github_easy", "Github_trivial", "Glaiveai2K", "Snowplow", "Handwritten", "Synthesized"]

  init(arguments: [String]) {
    var args = arguments.dropFirst()[...]
    while let a = args.popFirst() {
      switch a {
      case "--corpus": corpusDirectory = args.popFirst().map { URL(fileURLWithPath: $0) }
      case "--limit": limit = args.popFirst().flatMap { Int($0) }
      case "--p6-schemas": p6Schemas = args.popFirst().flatMap { Int($0) } ?? p6Schemas
      case "--vocabulary-size": vocabularySize = args.popFirst().flatMap { Int($0) } ?? vocabularySize
      case "--verbose": verbose = true
      case "--fuzz": fuzzRuns = args.popFirst().flatMap { Int($0) } ?? 5
      case "--gguf-vocabulary": ggufPath = args.popFirst()
      case "--test-suite": suiteDirectory = args.popFirst().map { URL(fileURLWithPath: $0) }
      case "--accept-unknown-keywords": options.acceptsUnknownKeywords = true
      case "--strict": options.acceptsUnknownKeywords = false
      case "--closed-objects": options.closesObjectsByDefault = true
      case "--depth": depthRuns = args.popFirst().flatMap { Int($0) } ?? 3
      default:
        print(
          """
          usage: maskbench (--corpus DIR | --test-suite DIR) [--gguf-vocabulary FILE] [--limit N] [--p6-schemas N] \
          [--vocabulary-size N] [--verbose] [--fuzz N] [--strict] [--closed-objects] [--depth RUNS]
          """)
        exit(2)
      }
    }
  }

  struct SubsetTally {
    var schemas = 0
    var accepted = 0
    /// Accepted with unknown keywords refused.
    var acceptedStrict = 0
    var unsupported: [String: Int] = [:]
    var otherErrors: [String: Int] = [:]
    var instances = 0
    var correct = 0
    var overConstrained = 0
    var underConstrained = 0
    /// Under the generation constraint (`ConstraintOptions.generation`): valid instances it can
    /// write, valid ones it leaves out (undeclared members, deep recursion), invalid ones it
    /// lets through (must be 0).
    var validGenerated = 0
    var validNotGenerated = 0
    var invalidGenerated = 0
    /// Valid instances in which loop stopping (`TokenMatcher.defaultLoopRun`) would end a value.
    var validLoopStopped = 0
  }

  struct LoadedCase {
    var name: String
    var subset: String
    var testCase: SchemaTestCase
  }

  func run() {
    if depthRuns > 0 {
      // The depth figure needs no corpus: a real vocabulary if given, else single bytes and
      // the JSON pieces of the payload.
      let vocabulary: Vocabulary
      if let ggufPath {
        guard let real = try? GGUFVocabulary.load(path: ggufPath) else { Self.fail("cannot read \(ggufPath)") }
        vocabulary = real
      } else {
        vocabulary = SyntheticVocabulary.build(size: vocabularySize, corpusTexts: [])
      }
      DepthRun(vocabulary: vocabulary, runs: depthRuns).run()
      return
    }
    if let suiteDirectory {
      // Single bytes and a few JSON pieces are enough to walk the suite's small values.
      let tokens =
        (0..<256).map { [UInt8($0)] } + ["{\"", "\":", "\",\"", "\"}", "true", "null"].map { Array($0.utf8) }
      let vocabulary = Vocabulary(tokens: tokens, endOfSequenceTokens: [])
      for draft in ["draft2020-12", "draft7"] {
        TestSuiteRun(directory: suiteDirectory, draft: draft, vocabulary: vocabulary, verbose: verbose).run()
      }
      TestSuiteRun(
        directory: suiteDirectory, draft: "draft2020-12", vocabulary: vocabulary, verbose: verbose, formatFiles: true
      ).run()
      return
    }
    guard let corpusDirectory else {
      Self.fail("pass --corpus DIR, the maskbench-dev folder (or --test-suite DIR, the JSON-Schema-Test-Suite)")
    }
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: corpusDirectory.path) else {
      Self.fail("no corpus at \(corpusDirectory.path) (--corpus DIR names the maskbench-dev folder)")
    }
    var files = names.filter { $0.hasSuffix(".json") }.sorted()
    if let limit, limit < files.count {
      let stride = Double(files.count) / Double(limit)
      files = (0..<limit).map { files[Int(Double($0) * stride)] }
    }
    var cases: [LoadedCase] = []
    var texts: [[UInt8]] = []
    for name in files {
      guard let data = FileManager.default.contents(atPath: corpusDirectory.appendingPathComponent(name).path),
        let testCase = try? SchemaTestCase(fileContents: data)
      else { continue }
      let subset = String(name.prefix { $0 != "-" })
      cases.append(LoadedCase(name: name, subset: subset, testCase: testCase))
      for i in testCase.instances where i.isValid { texts.append(Array(i.data.compactText.utf8)) }
    }
    let (vocabulary, vocabularySeconds) = measure {
      SyntheticVocabulary.build(size: vocabularySize, corpusTexts: texts)
    }
    print(
      jsonLine([
        ("figure", "vocabulary"), ("source", "synthetic"), ("tokens", vocabulary.count),
        ("trieNodes", vocabulary.trieNodeCount), ("nonPlainTrieNodes", vocabulary.nonPlainTrieNodeCount),
        ("buildSeconds", vocabularySeconds),
      ]))

    var tallies: [String: SubsetTally] = [:]
    var compileMs = Samples()
    var compiled: [(LoadedCase, SchemaDocument)] = []
    for c in cases {
      var tally = tallies[c.subset, default: SubsetTally()]
      tally.schemas += 1
      var strict = options
      strict.acceptsUnknownKeywords = false
      if (try? ConstraintAutomaton(JSONSchemaParser(options: strict).parse(c.testCase.schema))) != nil {
        tally.acceptedStrict += 1
      }
      do {
        // Instance accuracy is the standard's language: it shows the compilation is exact.
        let ((document, automaton), seconds) = try measure { () throws -> (SchemaDocument, ConstraintAutomaton) in
          let document = try JSONSchemaParser(options: options).parse(c.testCase.schema)
          return (document, try ConstraintAutomaton(document, options: .standard))
        }
        compileMs.append(seconds * 1000)
        tally.accepted += 1
        let outcomes = c.testCase.evaluate(document: document, automaton: automaton, vocabulary: vocabulary)
        for (o, instance) in zip(outcomes, c.testCase.instances) {
          tally.instances += 1
          if o.isCorrect {
            tally.correct += 1
          } else {
            if o.isValid { tally.overConstrained += 1 } else { tally.underConstrained += 1 }
            if verbose {
              print(
                "MISMATCH \(c.name) valid=\(o.isValid) bytes=\(o.acceptedByBytes) tokens=\(o.acceptedByTokens) \(String(instance.data.compactText.prefix(300)))"
              )
            }
          }
        }
        let generation = try ConstraintAutomaton(document)
        let generated = c.testCase.evaluate(
          document: document, automaton: generation, vocabulary: vocabulary, loopRun: TokenMatcher.defaultLoopRun)
        for (o, instance) in zip(generated, c.testCase.instances) {
          if o.isValid, o.endsLoop {
            tally.validLoopStopped += 1
            if verbose { print("LOOP STOP ON VALID \(c.name) \(String(instance.data.compactText.prefix(200)))") }
          }
          switch (o.isValid, o.acceptedByBytes && o.acceptedByTokens) {
          case (true, true): tally.validGenerated += 1
          case (true, false): tally.validNotGenerated += 1
          case (false, true):
            tally.invalidGenerated += 1
            if verbose {
              print("GENERATION ACCEPTS INVALID \(c.name) \(String(instance.data.compactText.prefix(300)))")
            }
          case (false, false): break
          }
        }
        compiled.append((c, document))
      } catch let error as SchemaError {
        if let keyword = error.unsupportedKeyword {
          tally.unsupported[keyword, default: 0] += 1
        } else {
          let kind = String(describing: error).prefix { $0 != ":" && $0 != "'" }.trimmingCharacters(in: .whitespaces)
          tally.otherErrors[kind, default: 0] += 1
        }
        if verbose { print("REJECTED \(c.name): \(error)") }
      } catch {
        tally.otherErrors["\(error)", default: 0] += 1
      }
      tallies[c.subset] = tally
    }
    for subset in Self.subsets {
      guard let t = tallies[subset] else { continue }
      let unsupported = t.unsupported.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
      print(
        jsonLine([
          ("figure", "maskbench"), ("subset", subset), ("schemas", t.schemas), ("accepted", t.accepted),
          ("acceptedShare", Double(t.accepted) / Double(max(t.schemas, 1))), ("acceptedStrict", t.acceptedStrict),
          ("instances", t.instances), ("correct", t.correct),
          ("instanceAccuracy", t.instances == 0 ? Double.nan : Double(t.correct) / Double(t.instances)),
          ("overConstrained", t.overConstrained), ("underConstrained", t.underConstrained),
          ("generationValid", t.validGenerated), ("generationLeavesOutValid", t.validNotGenerated),
          ("generationAcceptsInvalid", t.invalidGenerated), ("loopStoppingEndsValid", t.validLoopStopped),
          ("unsupported", unsupported.map { ($0.key, $0.value) }),
          ("otherErrors", t.otherErrors.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }),
        ]))
    }
    print(
      jsonLine([
        ("figure", "P7"), ("schemas", compileMs.count), ("median_ms", compileMs.percentile(50)),
        ("p99_ms", compileMs.percentile(99)), ("max_ms", compileMs.max), ("target_median_ms", 5.0),
      ]))
    if fuzzRuns > 0 {
      // A smaller vocabulary (single bytes and the most frequent pieces) keeps this fast.
      let small = Vocabulary(
        tokens: Array(vocabulary.tokens.prefix(4096)) + [Array("<|endoftext|>".utf8)], endOfSequenceTokens: [4096])
      FuzzRun(runsPerSchema: fuzzRuns, vocabulary: small, verbose: verbose)
        .run(compiled.map { ($0.0.name, $0.1) })
    }
    if let ggufPath {
      do {
        let (real, seconds) = try measure { try GGUFVocabulary.load(path: ggufPath) }
        print(
          jsonLine([
            ("figure", "vocabulary"), ("source", ggufPath), ("tokens", real.count), ("trieNodes", real.trieNodeCount),
            ("nonPlainTrieNodes", real.nonPlainTrieNodeCount),
            ("buildSeconds", seconds),
          ]))
        runP6(compiled, vocabulary: real)
      } catch {
        print("maskbench: \(error)")
      }
    } else {
      runP6(compiled, vocabulary: vocabulary)
    }
  }

  /// Mask time per generated token: for a sample of accepted schemas, a fresh matcher
  /// follows one valid instance token by token and computes the mask before each token.
  private func runP6(_ compiled: [(LoadedCase, SchemaDocument)], vocabulary: Vocabulary) {
    var cached = Samples()
    var uncached = Samples()
    var inconsistent = 0
    var bruteForceChecks = 0
    var bruteForceMismatches = 0
    var steps = 0
    let candidates = compiled.filter { $0.0.testCase.instances.contains { $0.isValid } }
    guard !candidates.isEmpty else { return }
    let stride = max(1, candidates.count / max(p6Schemas, 1))
    let sample = Swift.stride(from: 0, to: candidates.count, by: stride).prefix(p6Schemas).map { candidates[$0] }
    for (c, document) in sample {
      guard let automaton = try? ConstraintAutomaton(document),
        let instance = c.testCase.instances.first(where: \.isValid),
        let text = CanonicalSerializer(document: document).serializations(of: instance.data).first(where: {
          automaton.next(automaton.initialState, bytes: $0).map(automaton.isComplete) ?? false
        }),
        let tokens = vocabulary.greedyTokenize(text)
      else { continue }
      let matcher = TokenMatcher(automaton: automaton, vocabulary: vocabulary, loopRun: nil)
      // A second automaton answers the brute-force checks, so they warm no cache the
      // timed one uses.
      guard let checkerAutomaton = try? ConstraintAutomaton(document) else { continue }
      let checker = TokenMatcher(automaton: checkerAutomaton, vocabulary: vocabulary, loopRun: nil)
      for token in tokens + vocabulary.endOfSequenceTokens {
        // As deployed: the per-state cache, cold automaton states included.
        let (mask, seconds) = measure { matcher.allowedTokens() }
        // The full computation for the same state, without the mask cache.
        let (_, walkSeconds) = measure { matcher.allowedTokens(cached: false) }
        cached.append(seconds * 1e6)
        uncached.append(walkSeconds * 1e6)
        if verbose, seconds > 0.001 {
          print(automaton.debugDescription(of: matcher.state).replacingOccurrences(of: "GuidedDecoding.", with: ""))
          print(
            "SLOW \(c.name) \(Int(seconds * 1e6))us states=\(automaton.stateCount) at=\(String(decoding: text.prefix(60), as: UTF8.self))"
          )
        }
        steps += 1
        if !mask.contains(token) { inconsistent += 1 }
        // Every 25th step, compare the whole mask with token-by-token checks.
        if steps % 25 == 0 {
          bruteForceChecks += 1
          for id in 0..<vocabulary.count where mask.contains(id) != checker.allows(token: id) {
            bruteForceMismatches += 1
            if verbose { print("MASK MISMATCH \(c.name) token \(id) \(vocabulary.tokens[id])") }
          }
        }
        try? matcher.accept(token: token)
        try? checker.accept(token: token)
      }
    }
    print(
      jsonLine([
        ("figure", "P6"), ("vocabulary", vocabulary.count), ("steps", steps), ("median_us", cached.percentile(50)),
        ("p99_us", cached.percentile(99)), ("max_us", cached.max), ("uncached_median_us", uncached.percentile(50)),
        ("uncached_p99_us", uncached.percentile(99)),
        ("maskMissingNextToken", inconsistent), ("masksCheckedAgainstBruteForce", bruteForceChecks),
        ("bruteForceMismatches", bruteForceMismatches), ("target_median_us", 100.0), ("target_p99_us", 1000.0),
      ]))
  }

  /// Reports a missing or unreadable input on stderr (stdout carries the JSON lines) and exits.
  static func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("maskbench: \(message)\n".utf8))
    exit(1)
  }
}
