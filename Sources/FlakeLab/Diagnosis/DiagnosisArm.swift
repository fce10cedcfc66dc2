/// One way the diagnosis runs a test alone: an executor, a layout, and how many iterations. The
/// arms each change one factor, so that the contrasts between them say why a test fails
/// (``CauseContrast``).
package struct DiagnosisArm {
  let executor: any IterationExecutor
  let layout: TestReference.ProcessLayout
  let iterations: Int

  package init(executor: any IterationExecutor, layout: TestReference.ProcessLayout, iterations: Int) {
    self.executor = executor
    self.layout = layout
    self.iterations = iterations
  }

  /// Its order of jobs, where the harness sets one.
  var order: JobOrder? { executor.harnessMechanism?.jobOrder }

  /// Fresh processes on the FIFO queue list their failing iterations: the seeds the
  /// randomness replay runs again.
  var listsFailingSeeds: Bool { layout == .fresh && order == .fifo }

  /// Whether it is `other`'s way of running (executor and layout).
  func isSame(as other: DiagnosisArm?) -> Bool {
    layout == other?.layout && executor.id == other?.executor.id
  }

  /// The arms after a screen of `screenPasses` passes, under those of `executors` (one of each
  /// order of jobs) that took effect in `binary`: warm repetitions under each, twice the
  /// screen's passes, so that alone a test runs at least as often as in the screen under
  /// executors of either kind (which `interference` asks); fresh processes, a process each, as
  /// many as the screen's passes, under the one that runs jobs in parallel and the FIFO one
  /// (first runs, and the seeds the randomness replay runs again); and the parallel one's
  /// repetitions again, stressed (time).
  static func standard(
    screenPasses: Int, executors: [any IterationExecutor], binary: TestBinary
  ) -> [DiagnosisArm] {
    let usable = executors.filter(binary.supports)
    let order = { (order: JobOrder) in usable.first { $0.harnessMechanism?.jobOrder == order } }
    let warm = usable.map { DiagnosisArm(executor: $0, layout: .repetitions, iterations: screenPasses * 2) }
    let fresh = [order(.parallel), order(.fifo)].compactMap { $0 }.map {
      DiagnosisArm(executor: $0, layout: .fresh, iterations: screenPasses)
    }
    let stressed = order(.parallel).map {
      [DiagnosisArm(executor: $0, layout: .stressed, iterations: screenPasses * 2)]
    }
    return warm + fresh + (stressed ?? [])
  }
}
