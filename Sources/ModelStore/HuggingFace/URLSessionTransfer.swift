import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The delegate of one `ResumableDownload` transfer through URLSession (every `https` address):
/// hands the answer and the body, as they arrive on the session's delegate queue, to the
/// transfer's `PartialFileWriter`.
final class URLSessionTransfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  // `writer` is used only on the session's serial delegate queue.
  private let writer: PartialFileWriter

  init(writer: PartialFileWriter) {
    self.writer = writer
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
  ) {
    let http = response as? HTTPURLResponse
    let accepted = writer.accept(
      status: http?.statusCode ?? 0, contentRange: http?.value(forHTTPHeaderField: "Content-Range"))
    completionHandler(accepted ? .allow : .cancel)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    data.withUnsafeBytes { writer.append($0) }
    if writer.failed { dataTask.cancel() }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
  ) {
    var redirected = request
    let original = task.originalRequest
    // The range goes along; the token only to the host it was meant for.
    redirected.setValue(original?.value(forHTTPHeaderField: "Range"), forHTTPHeaderField: "Range")
    redirected.setValue(original?.value(forHTTPHeaderField: "Accept-Encoding"), forHTTPHeaderField: "Accept-Encoding")
    let sameHost = request.url?.host == original?.url?.host && request.url?.port == original?.url?.port
    redirected.setValue(
      sameHost ? original?.value(forHTTPHeaderField: "Authorization") : nil, forHTTPHeaderField: "Authorization")
    completionHandler(redirected)
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    writer.complete(error: error)
  }
}
