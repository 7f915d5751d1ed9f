import Foundation
import FoundationModels
import JSON

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension OpenAICompatibleLanguageModel {
  /// The models the server offers (`GET /v1/models`), by id.
  public func availableModels() async throws -> [String] {
    let object = try await json(urlRequest(endpoint("models")))
    return (object["data"]?.elements ?? []).compactMap { $0["id"]?.string }
  }

  /// The server's context size in tokens, where it says: llama-server's `/props`
  /// (`n_ctx` of its slots), vLLM's `max_model_len` in `/v1/models`; nil where it does not.
  public func contextSize() async throws -> Int? {
    if let props = try? await json(urlRequest(serverURL("props"))),
      let size = props["default_generation_settings"]?["n_ctx"]?.integer
    {
      return size
    }
    let models = try await json(urlRequest(endpoint("models")))["data"]?.elements ?? []
    let entry = models.first { $0["id"]?.string == model } ?? models.first
    return entry?["max_model_len"]?.integer
  }

  /// The tokens `text` takes in the server's tokenizer (`/tokenize` of llama-server and vLLM),
  /// or, where the server has no tokenizer endpoint, an estimate of one token per four bytes
  /// of UTF-8 (rounded up), which is close for English text and BPE vocabularies.
  public func tokenCount(for text: String) async throws -> Int {
    let body = JSONValue.object(["content": .string(text), "prompt": .string(text), "model": .string(model)])
    if let object = try? await json(
      urlRequest(serverURL("tokenize"), method: "POST", body: Data(body.compactText.utf8)))
    {
      if let tokens = object["tokens"]?.elements { return tokens.count }
      if let count = object["count"]?.integer { return count }
    }
    return (text.utf8.count + 3) / 4
  }

  /// A URL at the server's root (not under `/v1`), for llama-server's own endpoints.
  private func serverURL(_ path: String) -> URL {
    var root = baseURL
    if root.lastPathComponent == "v1" { root.deleteLastPathComponent() }
    return root.appendingPathComponent(path)
  }

  /// The JSON object a request answers with.
  /// - Throws: the server's error for a status other than 200, `RemoteModelError.connection`
  ///   when it cannot be reached.
  private func json(_ request: URLRequest) async throws -> JSONValue {
    var request = request
    request.timeoutInterval = timeoutSeconds
    let (data, response): (Data, URLResponse)
    do {
      (data, response) = try await URLSession.shared.data(for: request)
    } catch let error as URLError {
      throw RemoteModelError.connection(error.localizedDescription + " (\(request.url?.absoluteString ?? ""))")
    }
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    guard status == 200 else { throw RemoteModelError.from(status: status, body: data, retryAfter: nil) }
    guard let object = try? JSONValue(parsing: data), object.isObject else {
      throw RemoteModelError.protocolViolation("\(request.url?.path ?? "") did not answer with a JSON object")
    }
    return object
  }
}
