import Foundation
import Synchronization

/// The one thread on which every llama.cpp graph computation of the process runs
/// (`llama_decode` for sessions, the batch scheduler and the embedder).
///
/// Why: llama.cpp's CPU backend, built with OpenMP, meets its threads at a barrier after every
/// step of the graph, hundreds of times per token. libgomp keeps a pool of worker threads for
/// each thread that starts a parallel region, and once the process holds more such workers than
/// the machine has cores (a second thread computed anything: the guardrails' embedding probe, a
/// session whose work Dispatch ran on another of its threads) it stops spinning at barriers and
/// sleeps on a futex at each instead, and a session decoded markedly slower than llama-bench on
/// the same model and cores (`bench/README.md`, "Engine and session"). With every computation on
/// one thread there is one pool, and the barriers spin as in llama.cpp's own tools.
///
/// Callers block until their work has run; work from different callers runs one item at a
/// time, which on a CPU (each decode already uses every core) costs nothing; with a GPU, the
/// decodes of two contexts no longer overlap.
public enum ComputeThread {
  /// Runs `work` on the compute thread and returns its result; on that thread, at once.
  public static func run<Value>(_ work: () -> Value) -> Value {
    Worker.shared.run(work)
  }
}

/// The thread and its queue of work.
private final class Worker: Sendable {
  static let shared = Worker()

  private let items = Mutex<[(work: @Sendable () -> Void, done: DispatchSemaphore)]>([])
  private let available = DispatchSemaphore(value: 0)
  /// The thread's `pthread_self()`, set when it starts.
  private let threadID = Atomic<UInt>(0)

  private init() {
    let thread = Thread { [self] in loop() }
    thread.name = "llama.cpp compute"
    thread.qualityOfService = .userInitiated
    thread.start()
  }

  func run<Value>(_ work: () -> Value) -> Value {
    if threadID.load(ordering: .acquiring) == UInt(pthread_self()) { return work() }
    return withoutActuallyEscaping(work) { work in
      // The caller waits for the item below, so neither `work` nor `result` outlives this call,
      // and the semaphore orders the item's writes before the caller's reads.
      nonisolated(unsafe) let work = work
      nonisolated(unsafe) var result: Value?
      let done = DispatchSemaphore(value: 0)
      items.withLock { $0.append((work: { result = work() }, done: done)) }
      available.signal()
      done.wait()
      guard let result else { preconditionFailure("the compute thread returned without running the work") }
      return result
    }
  }

  private func loop() {
    threadID.store(UInt(pthread_self()), ordering: .releasing)
    while true {
      available.wait()
      runNext().signal()
    }
  }

  /// Runs the first item and lets go of it (a caller's `work` must not outlive its call, which
  /// ends when the semaphore returned is signalled).
  private func runNext() -> DispatchSemaphore {
    let (work, done) = items.withLock { $0.removeFirst() }
    work()
    return done
  }
}
