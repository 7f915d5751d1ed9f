import Foundation

/// Tells whether generated text reads as the model declining the request ("I'm sorry, but I
/// can't help with that", "As an AI, I cannot…"): how a refusal shows in guided generation,
/// where the model can only write it into the schema's strings.
///
/// Only the opening of a text counts, and only the wording of declining — an apology letter
/// ("I'm sorry I missed your party") or a sentence that merely mentions what someone cannot do
/// is not a refusal.
public enum RefusalDetector {
  /// Whether `text` opens with a refusal.
  public static func isRefusal(_ text: String) -> Bool {
    let opening = TextNormalizer.words(String(text.prefix(300))).prefix(24).joined(separator: " ")
    let range = NSRange(opening.startIndex..., in: opening)
    return expression.firstMatch(in: opening, range: range) != nil
  }

  private static let declining =
    "(?:cant|cannot|can not|wont|will not|am unable to|m unable to|am not able to|must decline to|must respectfully decline to|am not comfortable|do not feel comfortable|dont feel comfortable|am not allowed to|am not permitted to)"

  private static let acts =
    "(?:help|assist|provide|create|generate|do|comply|fulfill|fulfil|write|answer|complete|support|engage|produce|give|share|offer|continue|respond|process|participate|make|draft|discuss)"

  private static let expression: NSRegularExpression = {
    let patterns = [
      "(?:im |i am )?(?:really |so |very |truly )?sorry,? (?:but )?(?:i|we) \(declining)(?: \(acts))?",
      "(?:i|we) \(declining) \(acts)(?: you)?(?: with)? (?:that|this|your|such|the|these|those|requests?|it|content)",
      "(?:i|we) (?:must|have to|need to) (?:respectfully )?(?:decline|refuse)",
      "as an ai(?: language model| assistant| model)?,? i \(declining)",
      "unfortunately,? (?:i|we) \(declining) \(acts)",
      "(?:i|we) apologi[sz]e,? but (?:i|we) \(declining)",
    ]
    do {
      return try NSRegularExpression(pattern: "^(?:" + patterns.joined(separator: "|") + ")\\b")
    } catch {
      preconditionFailure("refusal pattern does not compile: \(error)")
    }
  }()
}
