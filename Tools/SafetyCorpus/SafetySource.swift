/// Where a text comes from: the unit the leave-one-source-out protocol holds out (trained and
/// thresholded without it, then measured on it).
public enum SafetySource: String, Sendable, DeclarationOrdered {
  case moderation = "OpenAI moderation"
  case doNotAnswer = "Do-Not-Answer"
  case bipia = "BIPIA"
  case jailbreaks = "jailbreaks in the wild"
  /// The project's own lists (`bench/guardrails`).
  case project = "project lists"
  /// XSTest: safe prompts built to sound unsafe, and their unsafe contrasts.
  case xstest = "XSTest"
  case advbench = "AdvBench"
  case harmbench = "HarmBench"
  /// SimpleSafetyTests: short, plainly worded harmful requests in five harm areas.
  case simpleSafetyTests = "SimpleSafetyTests"
  /// OKTest: everyday questions that use offensive or harmful-sounding words (measured only).
  case oktest = "OKTest"
}
