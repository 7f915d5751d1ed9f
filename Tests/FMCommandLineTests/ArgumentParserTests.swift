import Testing

@testable import FMCommandLine

@Suite struct ArgumentParserTests {
  private let parser = ArgumentParser(
    options: [
      .option("--model", "-m", value: "NAME", help: "Model."),
      .flag("--verbose", "-v", help: "More output."),
    ],
    command: "fm test")

  @Test func optionsFlagsAndPositionals() throws {
    let parsed = try parser.parse(["-m", "smollm2-135m", "hello", "--verbose", "world"])
    #expect(parsed.value("--model") == "smollm2-135m")
    #expect(parsed.flag("--verbose"))
    #expect(parsed.positionals == ["hello", "world"])
    #expect(!parsed.wantsHelp)
  }

  @Test func inlineValueAndLastOneWins() throws {
    let parsed = try parser.parse(["--model=a", "--model", "b=c"])
    #expect(parsed.values["--model"] == ["a", "b=c"])
    #expect(parsed.value("--model") == "b=c")
  }

  @Test func doubleDashEndsOptionsAndDashIsPositional() throws {
    let parsed = try parser.parse(["-", "--", "--verbose", "-m"])
    #expect(parsed.positionals == ["-", "--verbose", "-m"])
    #expect(!parsed.flag("--verbose"))
  }

  @Test func valueMayLookLikeAnOption() throws {
    // A value is taken as it is, so negative numbers and dashes work.
    #expect(try parser.parse(["--model", "-1"]).value("--model") == "-1")
  }

  @Test(arguments: ["--help", "-h"])
  func helpIsImplicit(flag: String) throws {
    #expect(try parser.parse(["x", flag]).wantsHelp)
  }

  @Test(arguments: [
    (["--bogus"], "unknown option '--bogus' for 'fm test' (see 'fm test --help')"),
    (["-x"], "unknown option '-x' for 'fm test' (see 'fm test --help')"),
    (["--model"], "option '--model' of 'fm test' needs a value"),
    (["--verbose=yes"], "option '--verbose' of 'fm test' takes no value"),
  ])
  func usageErrors(arguments: [String], message: String) {
    #expect(throws: UsageError(message)) { try parser.parse(arguments) }
  }

  @Test func positionalCount() throws {
    let one = try parser.parse(["a"])
    #expect(try one.positionals(named: ["NAME"], command: "fm x") == ["a"])
    #expect(throws: UsageError("'fm x' needs NAME (see 'fm x --help')")) {
      try parser.parse([]).positionals(named: ["NAME"], command: "fm x")
    }
    #expect(throws: UsageError("unexpected argument 'b' for 'fm x'")) {
      try parser.parse(["a", "b"]).positionals(named: ["NAME"], command: "fm x")
    }
  }
}
