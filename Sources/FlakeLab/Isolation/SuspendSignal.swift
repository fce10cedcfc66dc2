import Foundation
import Synchronization

/// Ctrl-Z, passed on. Workers run in process groups of their own, so the terminal's stop signal
/// reaches only the supervisor: it stops its workers, stops itself, and when it is continued
/// (`fg`, `bg`) continues them. The time stopped never counts against a timeout.
package enum SuspendSignal {
  private static let raised = Atomic<Bool>(false)

  /// Routes SIGTSTP to the flag. Call once, in the supervising process only.
  package static func install() {
    signal(SIGTSTP) { _ in SuspendSignal.raised.store(true, ordering: .relaxed) }
  }

  /// Gives SIGTSTP its default action back: once nothing is supervised, Ctrl-Z stops the lab as
  /// it stops any program.
  package static func restoreDefault() {
    signal(SIGTSTP, SIG_DFL)
  }

  /// Whether Ctrl-Z was pressed since the last call.
  static func takeRaised() -> Bool {
    raised.exchange(false, ordering: .relaxed)
  }

  /// Stops `workers` and this process; returns once this process is continued, with the
  /// workers continued too.
  static func suspend(_ workers: [WorkerProcess]) {
    workers.forEach { $0.send(SIGSTOP) }
    // SIGSTOP, not SIGTSTP: the kernel drops a terminal stop sent to an orphaned process group.
    raise(SIGSTOP)
    workers.forEach { $0.continueAfterStop() }
  }
}
