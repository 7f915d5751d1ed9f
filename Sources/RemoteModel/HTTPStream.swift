import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One HTTP request whose response body arrives as it is sent: the only way to read a stream
/// with Foundation on Linux, where `URLSession.bytes(for:)` is missing, is a data delegate.
/// Ending the stream (a cancelled consumer) cancels the request and closes the connection.
package enum HTTPStream {
  package enum Part: Sendable {
    case head(HTTPURLResponse)
    case body(Data)
  }

  /// The response to `request`: its head first, then the body in the chunks it arrives in.
  ///
  /// A plain `http://` request goes on a socket of its own (`PlainHTTPStream`); others through
  /// `URLSession`.
  package static func parts(of request: URLRequest, timeout: TimeInterval) -> AsyncThrowingStream<Part, any Error> {
    if request.url?.scheme?.lowercased() == "http" { return PlainHTTPStream.parts(of: request, timeout: timeout) }
    let (stream, continuation) = AsyncThrowingStream.makeStream(of: Part.self)
    let delegate = Delegate(continuation: continuation)
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = timeout
    configuration.timeoutIntervalForResource = 24 * 60 * 60
    let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    let task = session.dataTask(with: request)
    continuation.onTermination = { _ in
      task.cancel()
      session.invalidateAndCancel()
    }
    task.resume()
    return stream
  }

  private final class Delegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // Called on the session's serial delegate queue only.
    let continuation: AsyncThrowingStream<Part, any Error>.Continuation

    init(continuation: AsyncThrowingStream<Part, any Error>.Continuation) {
      self.continuation = continuation
    }

    func urlSession(
      _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
      completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
      if let response = response as? HTTPURLResponse { continuation.yield(.head(response)) }
      completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
      continuation.yield(.body(data))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
      if let error { continuation.finish(throwing: error) } else { continuation.finish() }
      session.finishTasksAndInvalidate()
    }
  }
}
