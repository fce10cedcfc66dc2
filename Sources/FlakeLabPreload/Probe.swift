import FlakeLab
import Synchronization

/// The start-up probe's checks: each reports whether a mechanism the harness relies on took
/// effect in this toolchain (see `HarnessProbe`).
enum Probe {
  static let redirected = Atomic<Int>(0)

  /// The serial executor's redirect, counting the jobs it sees.
  static let countingRedirect: GlobalEnqueueHook.Hook = { job, _ in
    Probe.redirected.add(1, ordering: .relaxed)
    MainActor.shared.enqueue(job)
  }

  /// Starts a task and reports whether the mechanism under test received its job.
  static func check(_ mechanism: HarnessMechanism) {
    guard let check = HarnessProbe.check(for: mechanism) else { return }
    let before = (redirected.load(ordering: .relaxed), MainQueueScheduler.shared.enqueuedJobs)
    Task.detached {}
    let after = (redirected.load(ordering: .relaxed), MainQueueScheduler.shared.enqueuedJobs)
    EventOutput.write(.probe(check: check, tookEffect: after != before))
  }
}
