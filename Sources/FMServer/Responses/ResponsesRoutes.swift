import Foundation
import FoundationModels
import JSON

/// OpenAI's Responses API on the served model: `POST /v1/responses` (streamed or not),
/// `GET /v1/responses/{id}`, `GET /v1/responses/{id}/input_items`, `DELETE /v1/responses/{id}`.
///
/// A response continued with `previous_response_id` is the stored conversation and the new
/// input: its prompt begins with the tokens the continued response evaluated and wrote, so the
/// slot that served it (the slot pool picks the one whose cache holds the longest prefix of a
/// prompt) evaluates only the new input.
struct ResponsesRoutes {
  let store: ResponseStore
  /// The CORS header fields every answer carries.
  let headers: [(name: String, value: String)]

  /// Answers `POST /v1/responses` for `request`; returns the summary for the metrics.
  func create(_ request: ResponsesRequest, on model: ServedModel, writer: ResponseWriter) async throws
    -> CompletionRunner.Summary
  {
    var history: [JSONValue] = []
    if let previous = request.previousResponseID {
      guard let stored = store.get(previous) else {
        throw Self.notFound(previous, param: "previous_response_id")
      }
      history = stored.conversation
    }
    let runner = CompletionRunner(model: model)
    let prepared = try await runner.prepare(try request.turn(after: history), promptParam: "input")
    let object = ResponseObject(
      id: ResponseItems.id("resp"), createdAt: Int(Date().timeIntervalSince1970), model: model.id, request: request)
    var output = ResponseOutput()
    let stream = EventStream(writer: writer, headers: headers)
    var sequence = 0
    func emit(_ type: String, _ members: [JSONValue.Member]) async throws {
      let data = JSONValue.object(
        [member("type", .string(type))] + members + [member("sequence_number", .integer(sequence))])
      sequence += 1
      try await stream.send(event: type, data: data.compactText)
    }
    func emit(_ events: [ResponseOutput.Event]) async throws {
      guard request.stream else { return }
      if !stream.hasStarted {
        try await emit("response.created", [member("response", object.json(.inProgress))])
        try await emit("response.in_progress", [member("response", object.json(.inProgress))])
      }
      for event in events { try await emit(event.type, event.members) }
    }
    do {
      let summary = try await runner.run(prepared, whole: !request.stream) { delta in
        try await emit(output.feed(delta))
      }
      try await emit(output.finish())
      let reasoningTokens =
        output.reasoningText.isEmpty
        ? 0 : try await model.tokenModel().tokenize(output.reasoningText, parseSpecial: false).count
      let status: ResponseObject.Status =
        summary.finishReason == .maximumTokens || summary.contentFiltered ? .incomplete : .completed
      let response = object.json(
        status, output: output.items, usage: ResponseObject.usage(summary, reasoningTokens: reasoningTokens),
        incompleteReason: summary.contentFiltered ? "content_filter" : "max_output_tokens")
      if request.store {
        try store.put(
          ResponseStore.Stored(
            response: response, inputItems: request.inputItems,
            // A blocked answer is not read again by the responses that continue this one.
            conversation: history + request.inputItems + (summary.contentFiltered ? [] : output.items)))
      }
      if request.stream {
        try await emit("response.\(status.rawValue)", [member("response", response)])
        try await stream.end()
      } else {
        try await writer.send(HTTPResponse.json(.ok, response.compactText, headers: headers))
      }
      return summary
    } catch  where stream.hasStarted && EventStream.reports(error) {
      let failure = OpenAIServer.apiError(for: error, fields: .responses)
      try await emit(
        "error",
        [
          member("code", .optional(failure.code)), member("message", .string(failure.message)),
          member("param", .optional(failure.param)),
        ])
      try await emit(
        "response.failed", [member("response", object.json(.failed, output: output.items, error: failure))])
      try await stream.end()
      throw error
    }
  }

  /// `GET /v1/responses/{id}`.
  func retrieve(_ id: String) throws -> String {
    try stored(id).response.compactText
  }

  /// `DELETE /v1/responses/{id}`.
  func delete(_ id: String) throws -> String {
    guard store.delete(id) else { throw Self.notFound(id, param: nil) }
    return JSONValue.object([
      member("id", .string(id)), member("object", .string("response")), member("deleted", .bool(true)),
    ])
    .compactText
  }

  /// `GET /v1/responses/{id}/input_items`: the request's own input items as a list page, with
  /// `limit` (1–100, 20 by default), `order` (`desc` by default, or `asc`) and `after` (an item id).
  func inputItems(_ id: String, query: String?) throws -> String {
    var items = try stored(id).inputItems
    let parameters = try QueryParameters(query, allowed: ["limit", "order", "after"])
    let limit = try parameters.integer("limit", in: 1...100) ?? 20
    switch parameters["order"] ?? "desc" {
    case "desc": items.reverse()
    case "asc": break
    default: throw APIError.invalid("'order' must be asc or desc", param: "order")
    }
    if let after = parameters["after"] {
      guard let index = items.firstIndex(where: { $0["id"]?.stringValue == after }) else {
        throw APIError.invalid("'after' names no input item of response '\(id)'", param: "after")
      }
      items.removeFirst(index + 1)
    }
    let page = Array(items.prefix(limit))
    return JSONValue.object([
      member("object", .string("list")), member("data", .array(page)),
      member("first_id", page.first?["id"] ?? .null), member("last_id", page.last?["id"] ?? .null),
      member("has_more", .bool(items.count > limit)),
    ]).compactText
  }

  private func stored(_ id: String) throws -> ResponseStore.Stored {
    guard let stored = store.get(id) else { throw Self.notFound(id, param: nil) }
    return stored
  }

  /// OpenAI's answer for an unknown response: a 404, also for one deleted or dropped from the
  /// bounded store.
  static func notFound(_ id: String, param: String?) -> APIError {
    APIError(
      .notFound, "Response with id '\(id)' not found (never stored, deleted, or dropped as the oldest of the store).",
      param: param, code: param == nil ? nil : "previous_response_not_found")
  }
}
