extension ReportJSON {
  /// The machine a report (a lab's or `ci`'s) says it ran on, as ``MachineInfo`` writes it.
  package static func machine(_ value: JSONValue) -> MachineInfo {
    MachineInfo(
      cores: value[Key.cores]?.int ?? 0, os: value[Key.os]?.string ?? "", swift: value[Key.swift]?.string ?? "")
  }

  /// The report in `data`, as ``render(_:)`` wrote it (or an earlier version of the lab did);
  /// `name` says which file in errors.
  package static func read(_ data: some Collection<UInt8>, name: String) throws(ReportFileError) -> Report {
    guard let document = JSONParser.parse(data), document[Key.flakelab]?.string != nil,
      let machine = document[Key.machine], machine.isObject, let runs = document[Key.runs]?.array
    else { throw .malformed(path: name, .notAReport) }
    var results: [RunResult] = []
    for run in runs {
      results.append(try self.run(run, name: name))
    }
    var shard: Shard?
    if let entry = document[Key.shard], let index = entry[Key.index]?.int,
      let count = entry[Key.count]?.int
    {
      do {
        shard = try Shard(index: index, count: count)
      } catch {
        throw .malformed(path: name, .shard(error))
      }
    }
    var report = Report(
      machine: Self.machine(machine),
      runs: results, interrupted: document[Key.interrupted]?.bool ?? false, shard: shard,
      seed: document[Key.seed]?.string.flatMap { UInt64($0) },
      timeout: try seconds(document, Key.timeoutSeconds, name: name).map(milliseconds))
    report.budget = try seconds(document, Key.budgetSeconds, name: name).map(milliseconds)
    for entry in document[Key.tests]?.array ?? [] {
      report.tests.append(try finding(entry, screen: results, name: name))
    }
    if let entry = document[Key.sanitizer], entry.isObject {
      guard let summary = sanitizer(reading: entry) else { throw .malformed(path: name, .sanitizer) }
      report.sanitizer = summary
    }
    return report
  }

  private static func milliseconds(_ seconds: Double) -> Duration {
    .milliseconds(Int64((seconds * 1000).rounded()))
  }

  /// The seconds `object` says at `key`: nil when it says none; a number no run could have
  /// lasted (negative, 1e30) makes the report malformed.
  private static func seconds(_ object: JSONValue, _ key: String, name: String) throws(ReportFileError) -> Double? {
    guard let value = object[key], value != .null else { return nil }
    guard let seconds = value.seconds else { throw .malformed(path: name, .seconds(field: key)) }
    return seconds
  }

  static func run(_ run: JSONValue, name: String) throws(ReportFileError) -> RunResult {
    guard let scenario = run[Key.scenario]?.string, let variant = run[Key.variant]?.string,
      let executor = run[Key.executor]?.string, let outcomes = run[Key.outcomes]?.array
    else { throw .malformed(path: name, .runWithoutNames) }
    let selector = "\(scenario).\(variant)"
    let framework = run[Key.framework]?.string.flatMap(PackageTest.Framework.init)
    var tally = Tally()
    for entry in outcomes {
      // A run has at most 10^12 iterations, as on the command line, and no negative count: sums
      // over any number of shards then never overflow, and no rate is negative.
      guard let count = entry[Key.count]?.int, count >= 0, count <= 1_000_000_000_000 - tally.iterations,
        let outcome = OutcomeCoding.outcome(entry, framework: framework)
      else { throw .malformed(path: name, .outcome(run: selector)) }
      tally.record(
        outcome, count: count, example: entry[Key.example]?.string,
        place: ReportJSON.location(reading: entry[Key.place]))
    }
    // The count a report states must be the count of its outcomes.
    guard run[Key.iterations]?.int == tally.iterations else {
      throw .malformed(path: name, .countsDoNotAddUp(run: selector))
    }
    let schedule = try run[Key.schedule].flatMap { entry throws(ReportFileError) in
      entry.isObject ? try self.schedule(entry, framework: framework, name: name) : nil
    }
    let replicates = try run[Key.replicates]?.array.map { entries throws(ReportFileError) in
      try self.replicates(entries, of: tally, name: name, run: selector)
    }
    // The report says whether the run's iterations were independent; in one from before it
    // did, how the interval was computed says it, and where that cannot (a single replicate)
    // the cautious answer is no.
    let method = run[Key.confidence]?[Key.method]?.string.flatMap(FailureRateEstimate.Method.init)
    let independent =
      run[Key.iterationsIndependent]?.bool ?? (method == .wilson && (replicates?.count ?? 0) > 1)
    var result = RunResult(
      RunKey(scenario: scenario, variant: variant, executor: ExecutorID(executor)), tally: tally,
      seconds: try seconds(run, Key.seconds, name: name) ?? 0, iterationsAreIndependent: independent,
      schedule: schedule, replicates: replicates)
    result.notRun = max(0, run[Key.notRun]?.int ?? 0)
    result.stop = run[Key.stopped]?.string.flatMap(RunStop.init)
    result.ignoredEvents = max(0, run[Key.ignoredEvents]?.int ?? 0)
    result.rerunForLostEvents = max(0, run[Key.rerunForLostEvents]?.int ?? 0)
    result.blockedIterations = max(0, run[Key.blockedIterations]?.int ?? 0)
    result.blockedPassingIterations = max(0, run[Key.blockedPassingIterations]?.int ?? 0)
    result.blockedAt = run[Key.blockedAt]?.string
    result.testSeconds = try seconds(run, Key.testSeconds, name: name)
    result.iterationTimes = iterationTimes(run[Key.iterationTimes])
    if let id = run[Key.test]?.string {
      (result.test, result.failedBeside) = try test(id, of: run, name: name)
      result.origins = try origins(run, of: result.test, name: name)
    }
    return result
  }

  /// The run's replicates, which add up to its counts. Reports from before replicates hold the
  /// run as one (nil).
  private static func replicates(
    _ entries: [JSONValue], of tally: Tally, name: String, run selector: String
  ) throws(ReportFileError) -> [ReplicateCounts] {
    var counts: [ReplicateCounts] = []
    for entry in entries {
      counts.append(try replicate(entry, of: tally, name: name, run: selector))
    }
    guard counts.reduce(0, { $0 + $1.iterations }) == tally.iterations,
      counts.reduce(0, { $0 + $1.passed }) == tally.passed
    else { throw .malformed(path: name, .countsDoNotAddUp(run: selector)) }
    return counts
  }

  /// A test alone's iteration times (``ReportJSON``'s `iterationTimes`); none where it timed
  /// none, or the entry is not whole.
  private static func iterationTimes(_ times: JSONValue?) -> IterationTimes {
    guard let times, let iterations = times[Key.iterations]?.int, iterations > 0,
      let seconds = times[Key.seconds]?.seconds
    else { return IterationTimes() }
    let fastest = times[Key.fastestFailureSeconds]?.seconds
    return IterationTimes(iterations: iterations, seconds: seconds, fastestFailure: fastest)
  }

  /// Where a run's failures probably came from (``RunResult/origins``).
  private static func origins(
    _ run: JSONValue, of test: TestReference?, name: String
  ) throws(ReportFileError) -> [SourceLocation: PackageTest] {
    var origins: [SourceLocation: PackageTest] = [:]
    for entry in run[Key.origins]?.array ?? [] {
      guard let place = ReportJSON.location(reading: entry[Key.place]), let owner = entry[Key.test]?.string, let test
      else { throw .malformed(path: name, .finding(test: test?.test.id ?? "?")) }
      origins[place] = PackageTest(id: owner, framework: test.test.framework)
    }
    return origins
  }

  /// The package test a run measured, and the tests beside it in the passes it failed.
  private static func test(
    _ id: String, of run: JSONValue, name: String
  ) throws(ReportFileError) -> (TestReference, [PackageTest: Int]) {
    guard let framework = run[Key.framework]?.string.flatMap(PackageTest.Framework.init),
      let layout = run[Key.processLayout]?.string.flatMap(TestReference.ProcessLayout.init)
    else { throw .malformed(path: name, .testRunWithoutLayout(test: id)) }
    var beside: [PackageTest: Int] = [:]
    for entry in run[Key.failedBeside]?.array ?? [] {
      guard let neighbour = entry[Key.test]?.string, let passes = entry[Key.passes]?.int, passes > 0 else {
        throw .malformed(path: name, .finding(test: id))
      }
      beside[PackageTest(id: neighbour, framework: framework), default: 0] += passes
    }
    let reference = TestReference(
      test: PackageTest(id: id, framework: framework), packagePath: run[Key.packagePath]?.string ?? ".", layout: layout,
      isConfirmation: run[Key.secondSeed]?.bool ?? false)
    return (reference, beside)
  }

  /// One replicate's counts, each within what the run itself counted.
  private static func replicate(
    _ entry: JSONValue, of tally: Tally, name: String, run: String
  ) throws(ReportFileError) -> ReplicateCounts {
    // Reports from before skipped iterations have no such counts: there were none.
    let values = CountField.all.compactMap { field in
      entry[field.key]?.int ?? (field.isRecent ? 0 : nil)
    }
    guard values.count == CountField.all.count, values.allSatisfy({ $0 >= 0 && $0 <= tally.iterations }),
      values[1...].reduce(0, +) == values[0]
    else { throw .malformed(path: name, .replicate(run: run)) }
    return ReplicateCounts(
      iterations: values[0], passed: values[1], failed: values[2], crashed: values[3],
      timedOut: values[4], deadlocked: values[5], skipped: values[6], executorChanged: values[7])
  }

  private static func schedule(
    _ entry: JSONValue, framework: PackageTest.Framework?, name: String
  ) throws(ReportFileError) -> RunSchedule {
    guard let seed = entry[Key.seed]?.string.flatMap({ UInt64($0) }),
      let fingerprint = entry[Key.fingerprint]?.string.flatMap(ScheduleText.parseHex)
    else { throw .malformed(path: name, .schedule) }
    let failing = (entry[Key.failingIterations]?.array ?? []).compactMap {
      item -> RunSchedule.FailingIteration? in
      guard let index = item[Key.index]?.int,
        let seed = item[Key.seed]?.string.flatMap({ UInt64($0) }),
        let fingerprint = item[Key.fingerprint]?.string.flatMap(ScheduleText.parseHex),
        let outcome = OutcomeCoding.outcome(item, framework: framework)
      else { return nil }
      return .init(index: index, seed: seed, fingerprint: fingerprint, outcome: outcome)
    }
    return RunSchedule(
      seed: seed, fingerprint: fingerprint, failingIterations: failing,
      isControlled: entry[Key.controlled]?.bool ?? true)
  }
}
