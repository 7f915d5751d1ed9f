/// JSON as the chat templates of Hugging Face models write it with `tojson` (Python's
/// `json.dumps` with its default separators): a space after each `,` and `:` between tokens,
/// none elsewhere.
///
/// Qwen2.5 was trained on tool definitions and calls written that way, and llama.cpp's Jinja
/// renders the same, so the prompt matches what the model saw in training.
enum TemplateJSON {
  /// `compact` (JSON with no whitespace between tokens) with the template's separators.
  static func spaced(_ compact: String) -> String {
    var result = ""
    result.reserveCapacity(compact.utf8.count + compact.utf8.count / 8)
    var inString = false
    var escaped = false
    for character in compact {
      result.append(character)
      if inString {
        if escaped {
          escaped = false
        } else if character == "\\" {
          escaped = true
        } else if character == "\"" {
          inString = false
        }
      } else if character == "\"" {
        inString = true
      } else if character == "," || character == ":" {
        result.append(" ")
      }
    }
    return result
  }
}
