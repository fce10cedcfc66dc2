import Foundation

/// The thread sanitizer's whole part of a run, as `flakelab test` and `flakelab ci` both ask it:
/// the sanitized build, then each subject alone (``SanitizedArm/run(_:processes:isInTime:onProcess:)``),
/// then with `--sanitize thread` the sanitized suite passes over every test
/// (``SanitizedArm/passes(_:count:isInTime:)``); what it took, or why it did not run.
package struct RaceSearch {
  package let package: TestPackage
  package let preload: String
  package let jobs: Int
  package let timeout: Duration
  package let confidence: Double
  package let sanitizing: Sanitizing

  package init(
    package: TestPackage, preload: String, jobs: Int, timeout: Duration, confidence: Double, sanitizing: Sanitizing
  ) {
    self.package = package
    self.preload = preload
    self.jobs = jobs
    self.timeout = timeout
    self.confidence = confidence
    self.sanitizing = sanitizing
  }

  /// Sanitized processes side by side: one a core. They measure no rate, so running them
  /// together moves nothing the lab reports, and FlakeKinds' thirty failing tests needed twice
  /// the sanitizer's share of the default budget one at a time.
  package static var defaultJobs: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

  /// What the search found: each test's races, what it took, whether Ctrl-C cut it.
  package struct Found: Sendable {
    package var evidence: [PackageTest: RaceEvidence] = [:]
    package var summary: SanitizerSummary?
    package var interrupted = false
  }

  /// Searches `subjects` alone, then, with `--sanitize thread`, `tests` in suite passes; nothing
  /// when there is neither. `onProgress` is told, phase `thread sanitizer`, one call at a time
  /// (the arm's lock), from its workers' threads.
  package func run(
    _ subjects: [SanitizedArm.Subject], passesOver tests: [PackageTest], isInTime: @escaping @Sendable () -> Bool,
    onProgress: @escaping (_ phase: String, Supervisor.Progress) -> Void
  ) throws -> Found {
    let clock = ContinuousClock()
    let started = clock.now
    nonisolated(unsafe) let onProgress = onProgress
    let progress = { @Sendable (label: String, done: Int, total: Int) in
      onProgress(
        "thread sanitizer",
        Supervisor.Progress(label: label, done: done, total: total, notPassed: 0, elapsed: clock.now - started))
    }
    let passes = sanitizing == .thread ? SanitizedArm.processes(confidence: confidence) : 0
    guard sanitizing != .none, !subjects.isEmpty || passes > 0 else { return Found() }
    guard isInTime() else {
      return Found(summary: SanitizerSummary(unavailable: "the budget left no time for the thread sanitizer's runs"))
    }
    let processes = SanitizedArm.processes(confidence: confidence)
    let total = subjects.count * processes + passes
    progress("building the tests sanitized", 0, total)
    let arm: SanitizedArm
    do {
      arm = SanitizedArm(
        build: try SanitizedBuild.build(package), package: package, preload: preload, jobs: jobs, timeout: timeout)
    } catch let unavailable as SanitizedBuild.Unavailable {
      return Found(summary: SanitizerSummary(unavailable: unavailable.reason))
    }
    let runsStarted = clock.now
    var (evidence, interrupted, unavailable) = arm.run(
      subjects, processes: processes, isInTime: isInTime,
      onProcess: { progress("\(subjects.count) tests alone", $0, total) })
    var summary = SanitizerSummary(build: arm.build.took, processes: evidence.values.reduce(0) { $0 + $1.runs })
    if passes > 0, !interrupted, unavailable == nil {
      progress("\(passes) suite passes", subjects.count * processes, total)
      let screened = arm.passes(tests, count: passes, isInTime: isInTime)
      evidence.merge(screened.evidence) { alone, _ in alone }
      interrupted = screened.interrupted
      unavailable = screened.unavailable
      summary.unattributedRaces = screened.unattributed
      summary.processes += screened.processes
    }
    summary.runs = clock.now - runsStarted
    summary.unavailable = unavailable
    if !interrupted, unavailable == nil, !isInTime() {
      summary.unavailable = "the budget cut the thread sanitizer's runs short"
    }
    return Found(evidence: evidence, summary: summary, interrupted: interrupted)
  }

  /// Each test that failed under global in `runs`, to run alone, after its polluters where
  /// `polluters` names them (those of its framework: a process runs one).
  package static func subjects(
    of tests: [PackageTest], failedIn runs: [RunResult], polluters: [PackageTest: Polluters] = [:]
  ) -> [SanitizedArm.Subject] {
    let failed = Set(runs.filter { $0.ranInParallel && $0.tally.notPassed > 0 }.compactMap(\.test?.test))
    return tests.filter(failed.contains).map { test in
      let before = polluters[test].map { $0.placement == .before ? $0.tests : [] } ?? []
      return SanitizedArm.Subject(test: test, alongside: before.filter { $0.framework == test.framework })
    }
  }
}
