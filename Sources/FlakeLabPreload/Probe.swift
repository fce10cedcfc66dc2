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

  /// Starts a task and reports whether the executor under test received its job.
  static func checkExecutor(_ executor: HarnessConfiguration.Executor) {
    guard executor != .global else { return }
    let before = (redirected.load(ordering: .relaxed), MainQueueScheduler.shared.enqueuedJobs)
    Task.detached {}
    let after = (redirected.load(ordering: .relaxed), MainQueueScheduler.shared.enqueuedJobs)
    let check = HarnessProbe.check(for: executor)!
    EventOutput.write(.probe(check: check, tookEffect: after != before))
  }
}
