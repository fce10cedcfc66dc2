extension SuitePassMachine {
  /// What one test came to under one arm, pass by pass.
  struct TestState {
    var replicates: [Tally]
    var schedule: RunSchedule?
    var notRun = 0
    var stop: RunStop?
    /// For each test that ran beside this one in a pass where it failed, in how many.
    var failedBeside: [PackageTest: Int] = [:]
    /// For each place a failure of it was recorded at that lies in another test's body: that
    /// test (``FailureOrigin``).
    var origins: [SourceLocation: PackageTest] = [:]
    /// Processes that ran it whose events did not add up, run again.
    var rerunForLostEvents = 0
    /// Passes in which a process died before any test started whenever it was among the tests.
    var diedBeforeStarting = 0
    /// Iterations that failed after ``PassSupervisor/slowFailure`` or more.
    var failedSlowly = 0
    /// Its own time: from each start to its end.
    var duration = Duration.zero

    var tally: Tally { replicates.reduce(into: Tally()) { $0.merge($1) } }

    mutating func record(
      _ outcome: Outcome, example: String? = nil, place: SourceLocation? = nil, pass: Int, replicate: Int
    ) {
      replicates[replicate].record(outcome, count: 1, example: example, place: place)
      schedule?.noteFailing(index: pass, fingerprint: 0, outcome: outcome)
    }

    /// What one process said of the test: its outcome, its time, and, when it failed, the tests
    /// that ran beside it (`neighbours`) and the test its failure's line lies in (`origin`).
    mutating func note(
      _ finished: SuiteEventFeed.Finished, neighbours: [PackageTest], origin: PackageTest?, pass: Int, replicate: Int
    ) {
      duration += finished.duration
      record(
        finished.outcome ?? .passed, example: finished.example, place: finished.place, pass: pass, replicate: replicate)
      guard finished.outcome.map({ !$0.isOutsideTheRate }) ?? false else { return }
      if let origin, let place = finished.place { origins[place] = origin }
      if finished.duration >= PassSupervisor.slowFailure { failedSlowly += 1 }
      for neighbour in neighbours { failedBeside[neighbour, default: 0] += 1 }
    }

    /// The run this state comes to, `planned` passes asked; those it did not run and that no
    /// stop explains were cut by `cut`.
    func result(
      of test: PackageTest, under executor: any IterationExecutor, packagePath: String, planned: Int,
      cutBy cut: RunStop?
    ) -> RunResult {
      var result = RunResult(
        RunKey(test: test, executor: executor.id), replicates: replicates, seconds: 0,
        iterationsAreIndependent: executor.iterationsAreIndependent, schedule: schedule, planned: planned,
        notRun: notRun, stop: stop, cutBy: cut)
      result.test = TestReference(test: test, packagePath: packagePath, layout: .suite)
      result.failedBeside = failedBeside
      result.origins = origins
      result.rerunForLostEvents = rerunForLostEvents
      result.testSeconds = duration.seconds
      return result
    }

    /// Why its first passes under the arm settle it there, if they do: each timed out, turned
    /// the executor off, failed only after a long wait, or killed its process before the start,
    /// and every further pass would cost that again to say so.
    var settled: RunStop? {
      guard stop == nil else { return nil }
      var evidence = RunSettling.Evidence(tally)
      evidence.failedAfterWaiting = failedSlowly
      evidence.diedBeforeStarting = diedBeforeStarting
      return RunSettling.stop(evidence)
    }
  }
}
