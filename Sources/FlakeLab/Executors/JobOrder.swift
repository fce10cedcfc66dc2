/// The capability a diagnosis asks of an executor: in what order it runs a test's jobs. The
/// contrasts compare runs by it (threads against one queue, FIFO against seeded), never by the
/// executor's name, so an executor of the same order is compared as its kind.
package enum JobOrder: Sendable {
  /// On the runtime's thread pool, side by side: races can happen.
  case parallel
  /// One at a time on one queue, first in, first out.
  case fifo
  /// One at a time on one queue, in an order drawn from the seed.
  case seeded
}

extension HarnessMechanism {
  package var jobOrder: JobOrder {
    switch self {
    case .untouched: .parallel
    case .mainQueueRedirect, .fifoScheduler: .fifo
    case .seededScheduler: .seeded
    }
  }
}

extension ExecutorID {
  /// The order the lab's executor of this name runs a test's jobs in; nil for one that cannot
  /// run a package's tests (it has no harness mechanism).
  package var jobOrder: JobOrder? {
    ExecutorCatalog.standard.first { $0.id == self }?.harnessMechanism?.jobOrder
  }
}

extension RunResult {
  /// Whether the run's jobs ran side by side on threads (under global).
  package var ranInParallel: Bool { executor.jobOrder == .parallel }
}
