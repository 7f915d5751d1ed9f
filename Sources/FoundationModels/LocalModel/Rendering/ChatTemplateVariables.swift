import InferenceEngine
import JSON

/// The chat template's own switches for one request (`enable_thinking`, `reasoning_effort`,
/// `tools_in_user_message`, …), as llama-server's `chat_template_kwargs`.
///
/// Our addition. Give them as the request's metadata under `chat_template_kwargs`, a JSON
/// object in a string: `session.respond(to: prompt, metadata: ["chat_template_kwargs":
/// #"{"enable_thinking": false}"#])`. They are the template's variables as given (a variable
/// the template does not read changes nothing, as with llama-server and `transformers`).
package enum ChatTemplateVariables {
  package static let metadataKey = "chat_template_kwargs"

  /// The variables in `metadata`, or none.
  /// - Throws: `GeneratedContent.ParsingError` when the value is not a string holding a JSON object.
  static func variables(in metadata: [String: any Sendable & Codable & Equatable]) throws -> [JSONValue.Member] {
    guard let value = metadata[metadataKey] else { return [] }
    guard let text = value as? String, case .object(let members)? = try? JSONValue(parsing: text) else {
      throw GeneratedContent.ParsingError(
        rawContent: "\(value)", debugDescription: "The metadata's \(metadataKey) must be a JSON object in a string.")
    }
    return members
  }

  /// Metadata that carries `variables`.
  package static func metadata(_ variables: JSONValue?) -> [String: any Sendable & Codable & Equatable] {
    guard let variables else { return [:] }
    return [metadataKey: variables.compactText]
  }
}
