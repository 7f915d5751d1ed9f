import Foundation

/// A TCP socket bound to a port the kernel chooses on 127.0.0.1: the free port of a test or
/// reference server.
enum LoopbackSocket {
  /// A bound socket and its port; listening when `backlog` is given.
  ///
  /// The caller closes it.
  static func bind(listening backlog: Int32? = nil) throws -> (descriptor: Int32, port: Int) {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
        Foundation.bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
          && (backlog.map { listen(descriptor, $0) == 0 } ?? true)
      }
    }
    guard bound else {
      close(descriptor)
      throw POSIXError(.EADDRINUSE)
    }
    return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
  }

  /// A listening socket for an HTTP server in a test, and the server's base URL.
  ///
  /// The caller closes it.
  static func server(backlog: Int32) throws -> (descriptor: Int32, baseURL: URL) {
    let (descriptor, port) = try bind(listening: backlog)
    guard let url = URL(string: "http://127.0.0.1:\(port)") else {
      close(descriptor)
      throw POSIXError(.EINVAL)
    }
    return (descriptor, url)
  }
}
