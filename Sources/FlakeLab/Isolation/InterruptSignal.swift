import Foundation
import Synchronization

/// Ctrl-C and SIGTERM, turned from "die now" into "stop and report what you have".
///
/// The handler only sets a flag; the supervisor's poll loop sees it within milliseconds, stops
/// the workers, and the command prints and writes the partial report and exits 130.
package enum InterruptSignal {
  private static let raised = Atomic<Bool>(false)

  /// Routes SIGINT and SIGTERM to the flag. Call once, in the supervising process only.
  package static func install() {
    for signalNumber in [SIGINT, SIGTERM] {
      signal(signalNumber) { _ in InterruptSignal.raised.store(true, ordering: .relaxed) }
    }
  }

  /// Gives SIGINT, SIGTERM (and Ctrl-Z's SIGTSTP) back their default action: once nothing is left to measure,
  /// stopping means stopping.
  package static func restoreDefaults() {
    for signalNumber in [SIGINT, SIGTERM, SIGTSTP] { signal(signalNumber, SIG_DFL) }
  }

  package static var isRaised: Bool { raised.load(ordering: .relaxed) }
}
