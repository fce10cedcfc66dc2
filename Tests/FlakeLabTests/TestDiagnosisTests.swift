import Foundation
import XCTest

@testable import FlakeLab

/// `flakelab test` in its default suite layout, on the FlakeKinds fixture (one test of each kind
/// the diagnosis tells apart): the suite passes' exact counts, crash and hang attribution with
/// resumption, and the diagnoses that are certain by construction.
final class TestDiagnosisTests: XCTestCase, LongHalf {
  override func setUp() async throws {
    let listing = try Fixtures.flakeKindsBuild.get()
    XCTAssertEqual(listing.status, 0, listing.stderr)
  }

  private struct Answer {
    let status: Int32
    let report: Report
    /// `tests[]` of the JSON report as its reader reads it back, by test ID.
    let tests: [String: TestFinding]
    let stderr: String
  }

  private func test(_ arguments: [String], environment: [String: String] = [:]) throws -> Answer {
    let result = try Flakelab.run(
      [
        "test", "--package-path", Fixtures.flakeKinds, "--sanitize", "none", "--skip-build", "--format", "json",
        "--no-progress",
      ] + arguments,
      environment: environment)
    XCTAssertFalse(result.stdout.isEmpty, result.stderr)
    let report = try ReportJSON.read(Array(result.stdout.utf8), name: "stdout")
    return Answer(
      status: result.status, report: report,
      tests: Dictionary(uniqueKeysWithValues: report.tests.map { ($0.test.id, $0) }), stderr: result.stderr)
  }

  /// The finding's first run in `layout` under `executor`: an arm of the JSON report's `arms`.
  private func arm(
    _ finding: TestFinding?, _ layout: TestReference.ProcessLayout, _ executor: ExecutorID
  ) -> RunResult? {
    finding?.runs.first { $0.test?.layout == layout && $0.executor == executor }
  }

  private let blocks = "FlakeKindsTests.blocksThread()"
  private let reads = "FlakeKindsTests.SharedSettingsTests/readsTheLanguage()"
  private let changes = "FlakeKindsTests.SharedSettingsTests/changesTheLanguage()"
  private let stable = "FlakeKindsTests.stable()"

  func testDiagnosesWhatIsCertainByConstruction() throws {
    // Four passes, each of which costs the blocking tests' waits: the fewest in which the blocking
    // test is seen to leave the passes after its third, and enough for every contrast below
    // (4 of 4 beside the polluter against none of 8 alone).
    let passes = 4
    let answer = try test(
      ["--iterations", String(passes), "--filter", "blocksThread|SharedSettings|stable\\(\\)|Currency|WaiterShim"])
    XCTAssertEqual(answer.status, 0, answer.stderr)
    // The screen: one run per test and executor, every one of the passes counted, ran or
    // left out once settled.
    XCTAssertEqual(answer.report.runs.count, 18)
    for run in answer.report.runs {
      XCTAssertEqual(run.test?.layout, .suite)
      XCTAssertEqual(run.tally.iterations + run.notRun, passes, "\(run.key)")
      XCTAssertEqual(run.tally.iterations, run.stop == nil ? passes : 3, "\(run.key)")
    }
    // Waits for a task with a semaphore: every iteration on one queue fails by its own wait.
    let blocking = answer.tests[blocks]
    XCTAssertEqual(blocking?.verdict, .flaky)
    XCTAssertEqual(blocking?.diagnosis, .blocksThread)
    // Each of its first three serial passes failed after its one-second wait: it leaves the
    // later serial passes, which would wait again to say so.
    XCTAssertEqual(arm(blocking, .suite, .serial)?.tally.notPassed, 3)
    XCTAssertEqual(arm(blocking, .suite, .serial)?.notRun, passes - 3)
    XCTAssertEqual(arm(blocking, .suite, .serial)?.stop, .everyIterationFailedSlowly)
    XCTAssertEqual(arm(blocking, .suite, .global)?.tally.notPassed, 0)
    XCTAssertEqual(arm(blocking, .repetitions, .seeded)?.stop, .everyIterationFailed)
    // Its answer leads with the line that blocks, the semaphore's wait in Kinds.swift
    // (the frame inside `#expect`'s expansion has no line of its own: then the failure's, the same).
    let open = blocking?.lead
    XCTAssertTrue([.blockingFrame, .failure].contains(open?.reason), "\(String(describing: open))")
    XCTAssertTrue(
      open?.location.path.hasSuffix("/Tests/FlakeKindsTests/Kinds.swift") ?? false, "\(String(describing: open))")
    XCTAssertEqual(open?.location.line, 49)
    XCTAssertTrue(blocking?.advice?.contains("DispatchSemaphore.wait") ?? false, blocking?.advice ?? "")
    // A blocking fulfillment(of:timeout:) shim spins XCTWaiter's run loop in no blocking call:
    // the harness sees the run loop idle on the queue's thread, and the lab names the shim's
    // line, which the answer opens at and the advice names (the frame to open).
    let shim = answer.tests["FlakeKindsTests.WaiterShimTests/testWaitsThroughABlockingShim"]
    XCTAssertEqual(shim?.diagnosis, .blocksThread)
    let shimRuns = shim?.runs ?? []
    let shimLine =
      "fulfillmentBlocking(of:timeout:) at Tests/FlakeKindsTests/Corpus/BlockedThreads.swift:58, in RunLoop.run"
    XCTAssertTrue(
      shimRuns.contains { !$0.ranInParallel && ($0.blockedAt ?? "").hasSuffix(shimLine) && $0.blockedIterations > 0 },
      "\(shimRuns.map { "\($0.executor) \($0.blockedAt ?? "-")" })")
    let shimOpen = shim?.lead
    XCTAssertTrue(
      shimOpen?.location.path.hasSuffix("/Corpus/BlockedThreads.swift") ?? false, "\(String(describing: shimOpen))")
    XCTAssertEqual(shimOpen?.location.line, 58)
    let shimAdvice = shim?.advice ?? ""
    XCTAssertTrue(
      shimAdvice.contains(
        "a run loop spun inside one of the queue's jobs at closure #1 in XCTestCase.fulfillmentBlocking"), shimAdvice)
    // Reads a setting its neighbour changes while they overlap: fails in every pass under
    // global, where they run side by side, and never alone.
    let reading = answer.tests[reads]
    XCTAssertEqual(reading?.diagnosis, .interference)
    XCTAssertEqual(arm(reading, .suite, .global)?.tally.notPassed, passes)
    XCTAssertEqual(arm(reading, .repetitions, .global)?.tally.notPassed, 0)
    let neighbours = reading?.neighbours.map(\.test.id) ?? []
    XCTAssertTrue(neighbours.contains(changes), "\(neighbours)")
    // The search names the one neighbour that fails it, beside it, and the advice names it.
    let readingPolluters = reading?.polluters
    XCTAssertEqual(readingPolluters?.tests.map(\.id), [changes])
    XCTAssertEqual(readingPolluters?.placement, .beside)
    XCTAssertEqual(readingPolluters?.failed, readingPolluters?.passes)
    XCTAssertTrue(reading?.advice?.hasPrefix(changes) ?? false, reading?.advice ?? "")
    // XCTest: one test changes a default that the two after it in the class's order read.
    let changer = "FlakeKindsTests.CurrencyTests/testChangesTheCurrency"
    for victim in ["FlakeKindsTests.CurrencyTests/testFormatsAPrice", "FlakeKindsTests.CurrencyTests/testParsesAPrice"]
    {
      let finding = answer.tests[victim]
      XCTAssertEqual(finding?.diagnosis, .interference, victim)
      XCTAssertEqual(arm(finding, .suite, .serial)?.tally.notPassed, passes, victim)
      XCTAssertEqual(finding?.polluters?.tests.map(\.id), [changer], victim)
      XCTAssertEqual(finding?.polluters?.placement, .before, victim)
      // The answer leads with the polluter's declaration.
      XCTAssertEqual(finding?.lead?.reason, .polluter, victim)
      XCTAssertEqual(finding?.lead?.detail, changer, victim)
      XCTAssertTrue(finding?.advice?.contains("running the tests one at a time keeps the order") ?? false)
    }
    for id in [changer, "FlakeKindsTests.CurrencyTests/testRoundsAnAmount"] {
      XCTAssertEqual(answer.tests[id]?.verdict, .stable, id)
    }
    // Stable ones are not drilled down: their arms are the screen's, the suite passes under
    // each executor and, under global, for Swift Testing the passes one test at a time and for
    // every test its passes alone.
    for id in [stable, changes] {
      XCTAssertEqual(answer.tests[id]?.verdict, .stable, id)
      XCTAssertEqual(answer.tests[id]?.runs.compactMap(\.test?.layout), [.suite, .suite, .oneAtATime, .alone], id)
    }
  }

  /// A test that stops its own process (SIGSTOP) hangs every test in flight beside it: each
  /// runs alone, as at a crash, and only the one that hangs alone too is charged the hang.
  func testAHangIsChargedToTheTestThatHangsAloneNotToItsNeighbour() throws {
    let answer = try test(
      ["--iterations", "2", "--executor", "global", "--timeout", "1s", "--filter", "Stopping"],
      environment: ["FLAKEKINDS_MISBEHAVE": "1"])
    let runs = Dictionary(uniqueKeysWithValues: answer.report.runs.map { ($0.test?.test.id ?? "?", $0) })
    XCTAssertEqual(runs["FlakeKindsTests.Stopping/stopsItsProcessWhenAsked()"]?.tally.timedOut, 2)
    let neighbour = "FlakeKindsTests.Stopping/takesItsTimeWhenAsked()"
    XCTAssertEqual(runs[neighbour]?.tally.passed, 2, "\(runs[neighbour]?.tally ?? Tally())")
    XCTAssertEqual(answer.tests[neighbour]?.verdict, .stable)
  }

  /// On real runs with a fixed seed: a test that fails every time on
  /// one queue without a wait is serial-deterministic, never blocks-thread; a test that a random
  /// value or a hash order decides is randomness, per iteration or per process, and its replay
  /// fails again.
  func testOneQueueOrderAndRandomnessAreToldApartOnRealRuns() throws {
    let answer = try test([
      "--iterations", "10", "--seed", "3", "--filter", "isLoading|reentrancy|randomValue|hashOrder",
    ])
    XCTAssertEqual(answer.status, 0, answer.stderr)
    for id in ["FlakeKindsTests.NumberFactTests/isLoading()", "FlakeKindsTests.reentrancy()"] {
      let finding = answer.tests[id]
      let runs = try XCTUnwrap(finding?.runs, id)
      // Every iteration on one queue failed, and each of its arms ran whole: a test that passed
      // alone is not broken, so three failures do not settle its arms, even when every screen
      // pass failed (isLoading under load).
      let fifo = runs.filter { $0.executor.jobOrder == .fifo }
      let passedSomewhere = runs.contains { $0.tally.passed > 0 }
      XCTAssertTrue(fifo.allSatisfy { $0.tally.notPassed == $0.tally.ran }, id)
      let serial = arm(finding, .repetitions, .serial)
      XCTAssertEqual(serial?.tally.notPassed, serial?.tally.ran, id)
      XCTAssertGreaterThanOrEqual(serial?.tally.ran ?? 0, 3, id)
      if passedSomewhere {
        // An arm whose first iterations each blocked the queue's thread has its answer there
        // (reentrancy() sleeps 2 ms before its second call).
        XCTAssertTrue(fifo.filter { $0.blockedIterations == 0 }.allSatisfy { $0.stop == nil && $0.notRun == 0 }, id)
      }
      // On a loaded machine the global executor's threads come late, and isLoading then fails
      // nearly always under global too, so that one queue's rate no longer stands out against
      // global's: no contrast shows the cause, and the lab must say so, never a wrong one
      // (first-run, blocks-thread). A test that never passed at all fails always, as far as
      // the runs show.
      let global = Diagnostician.Counts(runs.filter { $0.ranInParallel && $0.stop != .everyIterationFailed })
      let standsOut = Diagnostician.Counts(fifo).failMoreThan(global, confidence: answer.report.confidence)
      // Idle, global fails it about half the time (18 to 21 of 40 here): at half or less, one
      // queue's every time stands out by any measure, and the cause must be named.
      if global.ran > 0, global.failed * 2 <= global.ran {
        XCTAssertTrue(standsOut, "\(id): global failed \(global.failed) of \(global.ran)")
      }
      // Or FIFO order failed every one of more iterations than the first ones of two arms while
      // global passed now and then: that order decides the test by itself, whatever global's
      // rate (both are labelled serial-deterministic).
      let fifoWhole = Diagnostician.Counts(fifo.filter { $0.stop == nil })
      let fifoDecides = fifoWhole.alwaysFails && fifoWhole.ran >= 2 * RunSettling.limit + 1 && global.passes
      guard standsOut else {
        let expected: TestDiagnosis =
          fifoDecides ? .serialDeterministic : passedSomewhere ? .undetermined : .alwaysFails
        XCTAssertEqual(finding?.diagnosis, expected, "\(id): global failed \(global.failed) of \(global.ran)")
        continue
      }
      XCTAssertEqual(finding?.diagnosis, .serialDeterministic, "\(id): global failed \(global.failed) of \(global.ran)")
      XCTAssertTrue(finding?.advice?.contains("give the work a suspension point") ?? false, id)
      XCTAssertNil(finding?.randomDraw, id)
    }
    let draws: [(String, Diagnostician.RandomDraw)] = [
      ("FlakeKindsTests.randomValue()", .perIteration), ("FlakeKindsTests.hashOrder()", .perProcess),
    ]
    for (id, draw) in draws {
      let finding = answer.tests[id]
      XCTAssertEqual(finding?.diagnosis, .randomness, id)
      XCTAssertEqual(finding?.randomDraw, draw, id)
      // The seeds: fresh processes on one queue, some failing; the replay of those that failed
      // and as many that passed: every failing seed failed again, every passing one passed.
      let arms = finding?.runs ?? []
      func sum(_ layout: TestReference.ProcessLayout, _ count: (Tally) -> Int) -> Int {
        arms.filter { $0.test?.layout == layout && $0.executor == .serial }.reduce(0) { $0 + count($1.tally) }
      }
      let (seedsFailed, seedsRan) = (sum(.fresh, \.notPassed), sum(.fresh, \.ran))
      XCTAssertTrue(seedsFailed > 0 && seedsFailed < seedsRan, "\(id): \(seedsFailed) of \(seedsRan)")
      // Should a replay disagree, every arm's counts say which process and how (seen once in CI).
      let armLines = arms.map { arm in
        "\(arm.test?.layout.rawValue ?? "-") \(arm.executor) ran=\(arm.tally.ran) notPassed=\(arm.tally.notPassed) "
          + "crashed=\(arm.tally.crashed) timedOut=\(arm.tally.timedOut) executorChanged=\(arm.tally.executorChanged) "
          + "stopped=\(arm.stop?.rawValue ?? "-")"
      }
      XCTAssertEqual(sum(.replay, \.notPassed), seedsFailed, "\(id): \(armLines.joined(separator: "; "))")
      let replayed = sum(.replay, \.ran) - seedsFailed
      XCTAssertTrue(
        replayed > 0 && replayed <= min(seedsFailed, seedsRan - seedsFailed), "\(id): \(replayed) passing seeds")
      // Its replay command reproduces the failure: the seed decides the value or the order.
      let replay = try XCTUnwrap(finding?.replay(program: answer.report.program), id)
      XCTAssertTrue(replay.contains("--layout fresh") && replay.contains("--executor serial"), replay)
      let seedAndIndex = try XCTUnwrap(replay.firstMatch(of: /--seed (\d+) --index (\d+)/), replay)
      let again = try test([
        "--layout", "fresh", "--executor", "serial", "--filter",
        "^" + NSRegularExpression.escapedPattern(for: id) + "$",
        "--seed", String(seedAndIndex.1), "--index", String(seedAndIndex.2),
      ])
      XCTAssertEqual(again.report.runs.first?.tally.notPassed, 1, "\(id): \(replay)")
    }
  }

  /// The harness draws nothing from the stream a test's values come from: in a fresh process
  /// with a seed, `Int.random(in: 0..<10)` is the first value of that seed's stream, so the
  /// iterations that fail are those whose first draw is 7 or more, each with its draw. A draw of
  /// the harness's own made every value the stream's second, and one process in 800 its third,
  /// and a seed's replay then failed where its first run had passed.
  func testATestsRandomValuesAreItsSeedsStreamFromTheFirst() throws {
    let answer = try test([
      "--layout", "fresh", "--executor", "serial", "--seed", "3", "--iterations", "10", "--filter",
      "^FlakeKindsTests\\.randomValue\\(\\)$",
    ])
    XCTAssertEqual(answer.status, 0, answer.stderr)
    let tally = try XCTUnwrap(answer.report.runs.first).tally
    let draws = (0..<10).map { index in
      var stream = SplitMix64(seed: HarnessConfiguration.randomnessSeed(runSeed: 3, firstIndex: index))
      return Int.random(in: 0..<10, using: &stream)
    }
    XCTAssertEqual(tally.passed, draws.filter { $0 < 7 }.count, "\(draws)")
    let failures = Dictionary(grouping: draws.filter { $0 >= 7 }) { draw in
      Outcome.failed(observation: "Expectation failed: (discount → \(draw)) < 7")
    }
    XCTAssertEqual(tally.nonPassing, failures.mapValues(\.count), "\(draws)")
  }

  /// Foundation's identifiers are the seed's too: `UUID()` twice in a fresh XCTest process is
  /// the stream's first 32 bytes, each 16 with a version 4 UUID's bits, so the iterations whose
  /// first identifier sorts before the second pass, and only those (a process each, in order).
  /// Foundation read them from `/dev/urandom`, and a failing seed's replay passed.
  func testFoundationsIdentifiersComeFromTheSeed() throws {
    let answer = try test([
      "--layout", "fresh", "--executor", "global", "--seed", "5", "--iterations", "8", "--filter",
      "testIdentifiersAreMadeInOrder",
    ])
    XCTAssertEqual(answer.status, 0, answer.stderr)
    let run = try XCTUnwrap(answer.report.runs.first)
    let inOrder = (0..<8).map { index in
      var stream = SplitMix64(seed: HarnessConfiguration.randomnessSeed(runSeed: 5, firstIndex: index))
      let identifiers = (0..<2).map { _ in
        var bytes = (0..<2).flatMap { _ in withUnsafeBytes(of: stream.next(), Array.init) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return bytes
      }
      return identifiers[0].lexicographicallyPrecedes(identifiers[1])
    }
    XCTAssertEqual(run.replicates.map(\.iterations), Array(repeating: 1, count: 8))
    XCTAssertEqual(run.replicates.map { $0.passed == 1 }, inOrder)
  }

  func testACrashAndAHangInAPassAreChargedToTheirTestsAndThePassResumes() throws {
    let answer = try test(
      ["--iterations", "4", "--executor", "global", "--timeout", "1s", "--filter", "Misbehaving|stable\\(\\)|race"],
      environment: ["FLAKEKINDS_MISBEHAVE": "1"])
    XCTAssertEqual(answer.status, 0, answer.stderr)
    let runs = Dictionary(uniqueKeysWithValues: answer.report.runs.map { ($0.test?.test.id ?? "?", $0) })
    XCTAssertEqual(runs.count, 4)
    // Every crash is the crashing test's, however many tests were in flight beside it.
    XCTAssertEqual(
      Flakelab.counts(runs["FlakeKindsTests.Misbehaving/crashesWhenAsked()"]),
      ["iterations": 4, "passed": 0, "failed": 0, "crashed": 4, "timedOut": 0])
    // The hang is timed out in its first three passes, then left out of the rest.
    let hang = try XCTUnwrap(runs["FlakeKindsTests.Misbehaving/hangsWhenAsked()"])
    XCTAssertEqual(Flakelab.counts(hang), ["iterations": 3, "passed": 0, "failed": 0, "crashed": 0, "timedOut": 3])
    XCTAssertEqual(hang.notRun, 1)
    XCTAssertEqual(hang.stop, .everyIterationTimedOut)
    // The others ran in every pass: the pass resumed after each crash and hang.
    XCTAssertEqual(runs[stable]?.tally.iterations, 4)
    XCTAssertEqual(runs[stable]?.tally.passed, 4)
    XCTAssertEqual(runs["FlakeKindsTests.race()"]?.tally.iterations, 4)
    XCTAssertEqual(answer.tests["FlakeKindsTests.Misbehaving/crashesWhenAsked()"]?.verdict, .failing)
    // Timed out in every pass, the hang runs alone in fresh processes under global first: timed
    // out there too, it is failing, and no other arm waits three timeouts to say so again.
    let hanging = answer.tests["FlakeKindsTests.Misbehaving/hangsWhenAsked()"]
    XCTAssertEqual(hanging?.verdict, .failing)
    XCTAssertEqual(arm(hanging, .fresh, .global)?.tally.timedOut, 3)
    let others: [(TestReference.ProcessLayout, ExecutorID)] = [
      (.repetitions, .global), (.repetitions, .serial), (.fresh, .serial), (.stressed, .global),
    ]
    for (layout, executor) in others {
      XCTAssertEqual(arm(hanging, layout, executor)?.tally.ran, 0, "\(layout) \(executor)")
      XCTAssertEqual(arm(hanging, layout, executor)?.stop, .hangsAlone, "\(layout) \(executor)")
    }
  }

  /// Arguments that trap as Swift Testing plans the run kill the process before any test
  /// starts: the test is found by halves, charged the crash with its message, settled after
  /// three passes, and the others run in every pass. The gate and --fail-on-flaky fail.
  func testATestWhosePlanningKillsTheProcessIsChargedTheCrashAndTheOthersRun() throws {
    let answer = try test(
      ["--iterations", "4", "--executor", "global", "--filter", "PlanningTraps|stable\\(\\)|race", "--fail-on-flaky"],
      environment: ["FLAKEKINDS_TRAP_AT_PLANNING": "1"])
    XCTAssertEqual(answer.status, 1, answer.stderr)
    let runs = Dictionary(uniqueKeysWithValues: answer.report.runs.map { ($0.test?.test.id ?? "?", $0) })
    let planned = "FlakeKindsTests.PlanningTraps/trapsWhenPlanned(_:)"
    let trap = try XCTUnwrap(runs[planned])
    XCTAssertEqual(Flakelab.counts(trap), ["iterations": 3, "passed": 0, "failed": 0, "crashed": 3, "timedOut": 0])
    XCTAssertEqual(trap.stop, .everyIterationDiedBeforeStarting)
    XCTAssertEqual(trap.notRun, 1)
    let seen = trap.tally.outcomesByFrequency.compactMap {
      if case .crashed(let crash) = $0.outcome { crash } else { nil }
    }
    XCTAssertEqual(seen.count, 1, "\(seen)")
    XCTAssertTrue(seen[0].beforeTheTestStarted, "\(seen[0])")
    XCTAssertTrue(seen[0].how.hasPrefix("signal 4 (SIGILL)"), seen[0].how)
    XCTAssertTrue(seen[0].how.contains("the arguments trap when the run is planned"), seen[0].how)
    XCTAssertEqual(answer.tests[planned]?.verdict, .failing)
    XCTAssertTrue(answer.stderr.contains("not met: \(planned) is failing"), answer.stderr)
    for id in [stable, "FlakeKindsTests.race()"] {
      XCTAssertEqual(runs[id]?.tally.iterations, 4, id)
      XCTAssertNil(runs[id]?.stop, id)
    }
  }

  /// A budget spent at once: each executor's first pass still runs (an answer needs one), no
  /// later pass and no diagnosis process starts, and every run cut short says why.
  func testASpentBudgetStartsNothingMoreAndSaysSo() throws {
    let saved = FileManager.default.temporaryDirectory
      .appendingPathComponent("flakelab-budget-\(UUID().uuidString).json").path
    defer { try? FileManager.default.removeItem(atPath: saved) }
    let answer = try test(["--budget", "1ms", "--filter", "blocksThread|stable\\(\\)", "--output", saved])
    XCTAssertEqual(answer.status, 0, answer.stderr)
    XCTAssertEqual(answer.report.budget, .milliseconds(1))
    XCTAssertEqual(answer.report.runs.count, 4)
    for run in answer.report.runs {
      XCTAssertEqual(run.tally.iterations, 1, "\(run.key)")
      XCTAssertEqual(run.notRun, 19, "\(run.key)")
      XCTAssertEqual(run.stop, .budgetSpent, "\(run.key)")
    }
    // It failed its serial pass, so it was due a diagnosis, which never started.
    let arms = try XCTUnwrap(answer.tests[blocks]?.runs)
    // The passes alone, which no answer needs, are bound from their first: none ran.
    let alonePasses = try XCTUnwrap(arms.first { $0.test?.layout == .alone })
    XCTAssertEqual(alonePasses.tally.ran, 0, "\(alonePasses.key)")
    XCTAssertEqual(alonePasses.stop, .budgetSpent, "\(alonePasses.key)")
    let screenLayouts: Set<TestReference.ProcessLayout?> = [.suite, .oneAtATime, .alone]
    let drilled = arms.filter { !screenLayouts.contains($0.test?.layout) }
    XCTAssertEqual(drilled.count, 6)
    for arm in drilled {
      XCTAssertEqual(arm.tally.ran, 0, "\(arm.key)")
      XCTAssertEqual(arm.stop, .budgetSpent, "\(arm.key)")
    }
    // Every format says what was cut, rendered from the run's saved report.
    let merge = ["merge", saved]
    let csv = try Flakelab.run(merge + ["--format", "csv"]).stdout.split(separator: "\r\n")
    XCTAssertEqual(csv.count, 5, "\(csv)")
    for row in csv.dropFirst() { XCTAssertTrue(row.hasSuffix(",19,budgetSpent"), String(row)) }
    let junit = try Flakelab.run(merge + ["--format", "junit"]).stdout
    XCTAssertEqual(junit.components(separatedBy: "notRun=19\nstopped=budgetSpent").count, 5, junit)
    // The screen's passes, which half the budget ends by design, are said apart from the
    // diagnosis's runs: 1 of 20 passes under each executor; then the runs cut short, the
    // screen's one at a time and alone among them (1 of 20, 0 of 10), and the 6 arms never started.
    let screen = "it ran 1 of 20 passes under global and 1 of 20 passes under serial."
    let markdown = try Flakelab.run(merge + ["--format", "markdown"]).stdout
    XCTAssertTrue(markdown.contains(screen), markdown)
    XCTAssertTrue(markdown.contains("The --budget cut 10 runs short:"), markdown)
    let text = try Flakelab.run(merge).stdout
    XCTAssertTrue(text.contains("The screen stops at half of --budget"), text)
    XCTAssertTrue(text.contains(screen), text)
    XCTAssertTrue(text.contains("The --budget cut 10 runs short:"), text)
  }

  /// The markdown answer: one row per test that is not stable, with its diagnosis, its counts
  /// screen and alone, the line to open, and what to do; a line for the stable ones. In a GitHub
  /// Actions job, each such test is also a warning on the line to open, relative to the workspace.
  /// Rendered by `merge` from the saved report the page's checks read.
  func testTheMarkdownAnswerIsOneRowPerTestThatIsNotStableAndAnAnnotationOnItsLine() throws {
    let result = try SavedReports.merge(
      SavedReports.blockingAnswer, ["--format", "markdown"],
      environment: ["GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": Fixtures.flakeKinds])
    XCTAssertEqual(result.status, 0, result.stderr)
    // The harness saw the semaphore's wait block the queue's thread, and named the test's frame
    // that called it; the annotation lands on that line, the failing one.
    let frame = "blocksThread() at Tests/FlakeKindsTests/Kinds.swift:49, in DispatchSemaphore.wait"
    let advice =
      "\(frame) blocks the queue's thread until async work ends: await that work there instead "
      + "(XCTest's async fulfillment(of:timeout:), a continuation), in the test or the helper that blocks; never serialize this test"
    XCTAssertEqual(
      result.stderr,
      "::warning file=Tests/FlakeKindsTests/Kinds.swift,line=49,title=FlakeKindsTests.blocksThread() is flaky::"
        + "blocks-thread: blocks a thread waiting for async work: never finishes on one queue. "
        + "Failed: suite serial 3/3, repetitions serial 3/3, repetitions seeded 3/3, fresh serial 3/3. "
        + "Do: \(advice).\n")
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    XCTAssertEqual(
      Array(lines.prefix(6)),
      [
        "### flakelab test: 1 of 2 tests not stable", "",
        "| test | verdict | diagnosis | failed | what to do |", "| --- | --- | --- | --- | --- |",
        "| `FlakeKindsTests.blocksThread()` | flaky | **blocks-thread**: blocks a thread waiting for async work: never finishes on one queue"
          + "<br>open `Tests/FlakeKindsTests/Kinds.swift:49: blocks the queue's thread (\(frame))`"
          + " | suite: serial 3/3<br>alone: global 0/6, serial 3/3, seeded 3/3, fresh global 0/3, fresh serial 3/3, stressed global 0/6"
          + " | \(advice) |",
        "",
      ])
    // Its one-second wait makes it the slowest (by how much more, the machine says).
    let rest = lines.count > 6 ? lines[6] : ""
    XCTAssertTrue(
      rest.hasPrefix(
        "1 test stable over 3 passes under serial. Slowest, a pass on average: `FlakeKindsTests.blocksThread()` 1."),
      rest)
    XCTAssertTrue(rest.contains(" s (serial; blocks-thread) (JSON runs[].testSeconds)."), rest)
    // What three passes can miss, under the one executor its stable test ran under.
    XCTAssertTrue(
      rest.hasSuffix(
        "catch a test that fails in 63.16% of passes or more under serial (3 passes); "
          + "a rarer failure can pass them all: raise --iterations to catch it."), rest)
  }

  func testFailOnFlakyFailsTheCommandAndSaysWhichTest() throws {
    let result = try SavedReports.merge(SavedReports.blockingAnswer, ["--fail-on-flaky"])
    XCTAssertEqual(result.status, 1, result.stderr)
    XCTAssertTrue(result.stderr.contains("not met: \(blocks) is flaky (blocks-thread"), result.stderr)
    XCTAssertTrue(result.stdout.contains("FLAKY  \(blocks)  blocks-thread"), result.stdout)
    XCTAssertTrue(result.stdout.contains("1 test stable over 3 passes under serial."), result.stdout)
  }
}
