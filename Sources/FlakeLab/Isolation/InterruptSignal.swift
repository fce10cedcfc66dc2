import Foundation
import Synchronization

/// Ctrl-C and SIGTERM: "stop and report what you have" while the lab supervises processes, and
/// "stop now, with 130" at any other moment, whatever the command is waiting on (a FIFO that
/// never opens, a history another writer holds, a full pipe).
///
/// The handler sets a flag. Code that supervises processes runs inside ``watching(_:)``; its
/// poll loop sees the flag within milliseconds, stops what it started, and the command reports
/// what finished and exits 130. Outside any watcher, nothing would look at the flag, so the
/// handler ends the process itself.
package enum InterruptSignal {
  private static let raised = Atomic<Bool>(false)
  private static let watchers = Atomic<Int>(0)

  /// Routes SIGINT and SIGTERM here. Call once, first thing, in the supervising process only
  /// (never in a worker, which its supervisor stops).
  package static func install() {
    _ = raised.load(ordering: .relaxed)
    _ = watchers.load(ordering: .relaxed)
    for signalNumber in [SIGINT, SIGTERM] {
      signal(signalNumber) { _ in
        InterruptSignal.raised.store(true, ordering: .sequentiallyConsistent)
        // `_exit` is async-signal-safe; nothing a watcher-less moment started needs stopping.
        if InterruptSignal.watchers.load(ordering: .sequentiallyConsistent) == 0 { _exit(130) }
      }
    }
  }

  /// Runs `body`, which polls ``isRaised`` and stops what it started when it is, with an
  /// interrupt left to it rather than ending the process.
  package static func watching<Value, Failure: Error>(_ body: () throws(Failure) -> Value) throws(Failure) -> Value {
    watchers.add(1, ordering: .sequentiallyConsistent)
    defer { watchers.subtract(1, ordering: .sequentiallyConsistent) }
    return try body()
  }

  package static var isRaised: Bool { raised.load(ordering: .relaxed) }
}
