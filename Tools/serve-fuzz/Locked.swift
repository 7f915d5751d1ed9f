import Synchronization

/// A value the run's client threads share.
final class Locked<Value: Sendable>: Sendable {
  private let mutex: Mutex<Value>
  init(_ value: Value) { mutex = Mutex(value) }
  func withLock<Result: Sendable>(_ body: (inout sending Value) -> sending Result) -> Result { mutex.withLock(body) }
}
