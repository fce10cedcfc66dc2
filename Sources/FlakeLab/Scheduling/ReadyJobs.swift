@_spi(ExperimentalCustomExecutors) import _Concurrency

/// The core both of the lab's schedulers share: the jobs ready to run, in the order they became
/// ready, and where the one picked runs.
///
/// The lab's own scheduler (``DeterministicScheduler``: virtual time, a run loop of its own,
/// deadlocks, traces) and the harness's in a package's test process (real time, one main-queue
/// block per job, because the test framework owns the main thread) differ in when a job becomes
/// ready; what is ready, how the next is picked, and where it runs are this type's.
package struct ReadyJobs {
  package struct Job {
    package let job: UnownedJob
    package let kind: ScheduleStep.Kind
    /// The virtual instant a sleeper's timer fired, for traces.
    package let firedAt: Duration?

    /// Runs the job: a main-actor job on the main executor; a global job on the global executor
    /// when the order is seeded, and on the main executor in first-in first-out order, as the
    /// serial executor runs it.
    package func run(seededOrder: Bool, main: UnownedSerialExecutor, global: UnownedTaskExecutor) {
      if kind == .global, seededOrder {
        job.runSynchronously(on: global)
      } else {
        job.runSynchronously(on: main)
      }
    }
  }

  private var jobs: [Job] = []

  package init() {}

  package var count: Int { jobs.count }
  package var isEmpty: Bool { jobs.isEmpty }

  package mutating func append(_ job: UnownedJob, kind: ScheduleStep.Kind, firedAt: Duration? = nil) {
    jobs.append(Job(job: job, kind: kind, firedAt: firedAt))
  }

  package mutating func removeAll() {
    jobs.removeAll()
  }

  /// Takes the job at `index`, the one a policy picked among ``count``.
  package mutating func take(at index: Int) -> Job {
    jobs.remove(at: index)
  }

  /// Takes the next job: the first, or with `generator` the one it picks among those ready.
  package mutating func takeNext(using generator: inout SplitMix64?) -> Job? {
    guard !jobs.isEmpty else { return nil }
    guard jobs.count > 1, var picking = generator else { return jobs.removeFirst() }
    let index = picking.choice(among: jobs.count)
    generator = picking
    return jobs.remove(at: index)
  }
}
