import XCTest

@testable import FlakeLab

/// The supervisor's decisions, fed how workers ended, with no process: a crash or a hang is the
/// iteration's and the batch resumes, a run settles or never starts, the budget cuts.
final class BatchMachineTests: XCTestCase {
  private func run(_ name: String, iterations: Int, replicates: Int, test: Bool = false) -> SupervisedRun {
    let package = PackageTest(id: "M.S/\(name)()", framework: .swiftTesting)
    return SupervisedRun(
      RunKey(scenario: "s", variant: name, executor: .global), executor: GlobalExecutor(), indices: 0..<iterations,
      seed: 0, test: test ? TestReference(test: package, packagePath: ".", layout: .repetitions) : nil,
      replicates: replicates
    ) { _ in throw Supervisor.WorkerStartFailure(selector: "never.started", reason: .ended(status: 1), lastLines: "") }
  }

  private func end(
    completed: Int, status: Int32 = SIGILL, ready: Bool = true, timedOut: Bool = false
  ) -> BatchMachine.BatchEnd {
    BatchMachine.BatchEnd(
      exit: ProcessExit(
        status: status, wasTimedOut: timedOut, wasReady: ready, output: "Fatal error: boom",
        lifetime: .milliseconds(10)),
      completed: completed, ignoredEvents: 0, iterationTime: .milliseconds(5))
  }

  func testACrashIsTheIterationsAndTheRestOfTheBatchRunsFirstInANewWorker() throws {
    var machine = BatchMachine(
      [run("a", iterations: 10, replicates: 2), run("b", iterations: 10, replicates: 2)], jobs: 1)
    let first = try XCTUnwrap(machine.nextBatch())
    XCTAssertEqual(first, Supervisor.Batch(run: 0, replicate: 0, indices: 0..<5))
    machine.take(WorkerNews(passes: 2), for: first)
    try machine.workerEnded(first, end(completed: 2))
    XCTAssertEqual(machine.nextBatch(), Supervisor.Batch(run: 0, replicate: 0, indices: 3..<5))
    XCTAssertEqual(
      machine.runs[0].replicates[0].outcomesByFrequency.map(\.outcome),
      [.crashed(Crash(status: SIGILL, lastLines: "Fatal error: boom"))])
  }

  func testThreeTimeoutsSettleARunAndItsOtherBatchesAreNotRun() throws {
    var machine = BatchMachine([run("a", iterations: 10, replicates: 2)], jobs: 1)
    var batch = try XCTUnwrap(machine.nextBatch())
    for _ in 0..<3 {
      try machine.workerEnded(batch, end(completed: 0, status: SIGKILL, timedOut: true))
      if machine.runs[0].stop == nil { batch = try XCTUnwrap(machine.nextBatch()) }
    }
    XCTAssertEqual(machine.runs[0].stop, .everyIterationTimedOut)
    XCTAssertNil(machine.nextBatch())
    XCTAssertEqual(machine.runs[0].notRun, 7, "the rest of the first batch and the whole second")
  }

  func testAScenarioWorkerThatNeverStartsIsTheLabsFailureATestsIsItsOutcome() throws {
    var scenario = BatchMachine([run("a", iterations: 3, replicates: 1)], jobs: 1)
    let batch = try XCTUnwrap(scenario.nextBatch())
    XCTAssertThrowsError(try scenario.workerEnded(batch, end(completed: 0, ready: false))) { error in
      let expected = Supervisor.WorkerStartFailure(
        selector: "s.a", reason: .ended(status: SIGILL), lastLines: "Fatal error: boom")
      XCTAssertEqual(error as? Supervisor.WorkerStartFailure, expected)
    }

    var test = BatchMachine([run("a", iterations: 10, replicates: 1, test: true)], jobs: 1)
    for _ in 0..<3 {
      let batch = try XCTUnwrap(test.nextBatch())
      try test.workerEnded(batch, end(completed: 0, ready: false))
    }
    XCTAssertEqual(test.runs[0].stop, .neverStarted)
    guard case .crashed(let crash)? = test.runs[0].replicates[0].outcomesByFrequency.first?.outcome else {
      return XCTFail()
    }
    XCTAssertTrue(crash.beforeTheTestStarted)
    XCTAssertEqual(test.runs[0].notRun, 7)
  }

  func testTheBudgetCutsEveryBatchNotStarted() throws {
    var machine = BatchMachine(
      [run("a", iterations: 10, replicates: 2), run("b", iterations: 4, replicates: 2)], jobs: 1)
    _ = machine.nextBatch()
    machine.deadlinePassed()
    XCTAssertNil(machine.nextBatch())
    XCTAssertEqual(machine.runs.map(\.notRun), [5, 4])
    XCTAssertEqual(machine.runs.map(\.stop), [.budgetSpent, .budgetSpent])
  }
}
