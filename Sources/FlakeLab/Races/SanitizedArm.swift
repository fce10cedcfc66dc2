import Foundation
import Synchronization

/// The thread sanitizer's arm: each test that failed under global, run alone under global in
/// fresh processes of the sanitized test binary (after its polluters, where the search named
/// them), until its races are settled.
///
/// A race shows in a sanitized process only when its two accesses both happen in it, which a
/// race that decides a test's failures does in most, but not all (a task group whose tasks ran
/// one after the other races nowhere). Settled means: as many processes as a race present in
/// half of them would show in at least one of, at the report's confidence
/// (``processes(confidence:)``: 5 at 95%).
///
/// The processes carry the harness only to tie their lives to the lab's: no executor is
/// installed (global is the process's own), and no seed, watch or interposer is set, so none of
/// the harness's instruments is on in them.
package struct SanitizedArm {
  package let build: SanitizedBuild
  package let package: TestPackage
  package let preload: String
  package let jobs: Int
  /// How long a sanitized process may run: the iteration's limit, ten times over, since the
  /// sanitizer slows code five to fifteen times.
  package let timeLimit: Duration

  /// One test to run sanitized, and the tests to run before it in its processes.
  package struct Subject: Sendable {
    package let test: PackageTest
    package let alongside: [PackageTest]

    package init(test: PackageTest, alongside: [PackageTest] = []) {
      self.test = test
      self.alongside = alongside
    }
  }

  package init(build: SanitizedBuild, package: TestPackage, preload: String, jobs: Int, timeout: Duration) {
    self.build = build
    self.package = package
    self.preload = preload
    self.jobs = max(1, jobs)
    self.timeLimit = timeout * 10
  }

  /// The processes per test that show, at `confidence`, a race present in half of them.
  package static func processes(confidence: Double) -> Int {
    max(3, Int((log(1 - confidence) / log(0.5)).rounded(.up)))
  }

  /// What `subjects` showed, `processes` each, none started once `isInTime` says no; whether
  /// Ctrl-C cut the runs; and why they stopped, where the sanitizer could not run here.
  /// `onProcess` is told how many processes have ended, one call at a time.
  package func run(
    _ subjects: [Subject], processes: Int, isInTime: @Sendable () -> Bool,
    onProcess: @Sendable (Int) -> Void = { _ in }
  ) -> (evidence: [PackageTest: RaceEvidence], interrupted: Bool, unavailable: String?) {
    let work = subjects.flatMap { subject in Array(repeating: subject, count: processes) }
    let next = Atomic<Int>(0)
    let interrupted = Atomic<Bool>(false)
    let unavailable = Mutex<String?>(nil)
    let evidence = Mutex<[PackageTest: RaceEvidence]>([:])
    for subject in subjects {
      evidence.withLock { $0[subject.test] = RaceEvidence(alongside: subject.alongside) }
    }
    DispatchQueue.concurrentPerform(iterations: min(jobs, max(1, work.count))) { _ in
      while true {
        let index = next.add(1, ordering: .relaxed).oldValue
        guard index < work.count, !interrupted.load(ordering: .relaxed), unavailable.withLock({ $0 == nil }),
          isInTime()
        else { return }
        do {
          let (failed, races) = try runOnce(work[index])
          evidence.withLock {
            $0[work[index].test]?.add(failed: failed, races: races, packagePath: package.path)
            onProcess($0.values.reduce(0) { $0 + $1.runs })
          }
        } catch let cannot as SanitizedBuild.Unavailable {
          unavailable.withLock { $0 = $0 ?? cannot.reason }
        } catch {
          // Ctrl-C, or a process that could not start: no more processes.
          interrupted.store(true, ordering: .relaxed)
        }
      }
    }
    return (evidence.withLock { $0 }, interrupted.load(ordering: .relaxed), unavailable.withLock { $0 })
  }

  /// `passes` sanitized suite passes over `tests`, each framework's in a process, as the screen
  /// runs them under global (Swift Testing's in parallel): races that have not failed a test
  /// yet. Each race goes to the test whose function is on one of its stacks; those on no test's
  /// stack are counted apart.
  package func passes(
    _ tests: [PackageTest], count passes: Int, isInTime: @Sendable () -> Bool
  ) -> (
    evidence: [PackageTest: RaceEvidence], unattributed: Int, processes: Int, interrupted: Bool, unavailable: String?
  ) {
    var evidence: [PackageTest: RaceEvidence] = [:]
    var processes = 0
    var unattributed = Set<[String]>()
    let groups = PackageTest.Framework.allCases.map { framework in tests.filter { $0.framework == framework } }
      .filter { !$0.isEmpty }
    for _ in 0..<passes {
      for group in groups {
        guard isInTime() else { return (evidence, unattributed.count, processes, false, nil) }
        let races: [DataRace]
        do {
          races = try runOnce(Subject(test: group[0]), arguments: passArguments(group)).races
        } catch let cannot as SanitizedBuild.Unavailable {
          return (evidence, unattributed.count, processes, false, cannot.reason)
        } catch {
          return (evidence, unattributed.count, processes, true, nil)
        }
        processes += 1
        var racing: [PackageTest: [DataRace]] = [:]
        for race in races {
          if let test = race.test(among: group) {
            racing[test, default: []].append(race)
          } else {
            unattributed.insert(race.key(in: package.path))
          }
        }
        for test in group {
          evidence[test, default: RaceEvidence()].add(
            failed: false, races: racing[test] ?? [], packagePath: package.path)
        }
      }
    }
    // Every test that ran keeps its evidence, races or none: a history tells a race fixed from a
    // test not sanitized by it.
    return (evidence, unattributed.count, processes, false, nil)
  }

  /// The arguments of a suite pass over `tests`, of one framework.
  private func passArguments(_ tests: [PackageTest]) -> [String] {
    switch tests[0].framework {
    case .xctest: ["--testing-library", "xctest", tests.map(\.id).joined(separator: ",")]
    case .swiftTesting:
      ["--testing-library", "swift-testing"] + TestLaunch.selection(tests, of: package.swiftTestingTests)
    }
  }

  /// One sanitized process of `subject` (with `arguments`, or those that run it alone after
  /// the tests alongside): whether it failed, and the races it reported.
  private func runOnce(_ subject: Subject, arguments: [String]? = nil) throws -> (failed: Bool, races: [DataRace]) {
    let logs = FileManager.default.temporaryDirectory
      .appendingPathComponent("flakelab-races-\(getpid())-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: logs) }
    var environment = TestLaunch.environment(nil, preload: preload)
    // The test's own exit status, not the sanitizer's 66; the reports in files of their own,
    // apart from the test's output.
    environment["TSAN_OPTIONS"] = ["exitcode=0", "log_path=\(logs.path)/race", environment["TSAN_OPTIONS"]]
      .compactMap { $0 }.joined(separator: ":")
    let failed: Bool
    do {
      let process = try CapturedProcess.run(
        build.binary, arguments ?? Self.arguments(subject.alongside + [subject.test]), environment: environment,
        timeLimit: timeLimit, discardingOutput: true)
      failed = process.status != 0
    } catch is CapturedProcess.TimedOut {
      failed = true
    }
    if InterruptSignal.isRaised { throw CapturedProcess.Interrupted() }
    let log = ((try? FileManager.default.contentsOfDirectory(atPath: logs.path)) ?? []).sorted().compactMap {
      try? String(contentsOfFile: logs.appendingPathComponent($0).path, encoding: .utf8)
    }.joined(separator: "\n")
    // A sanitizer that cannot run here (a memory layout it does not take) fails every process
    // before a test runs: no run of the test, and no "no data race" either.
    if let fatal = log.split(separator: "\n").first(where: {
      $0.contains("FATAL: ThreadSanitizer") || $0.contains("ThreadSanitizer: CHECK failed")
    }) {
      throw SanitizedBuild.Unavailable(reason: "the sanitized test binary does not run here: \(fatal)")
    }
    return (failed, Self.packageRaces(in: log, packagePath: package.path))
  }

  /// The races of `log` that are the package's: one of whose accesses a line of its own made,
  /// and not every one of those inside a `Synchronization.Mutex` (``MutexScope``). A race whose
  /// accesses were both made inside a library (XCTest's expectations, Foundation), even called
  /// from the package's code, is the toolchain's to order, with synchronization the sanitizer
  /// does not see in code it did not instrument.
  static func packageRaces(in log: String, packagePath: String, mutexes: MutexScope = MutexScope()) -> [DataRace] {
    var mutexes = mutexes
    func madeByThePackage(_ access: DataRace.Access) -> Bool {
      access.stack.first.map { DataRace.Access.isOwn($0, in: packagePath) } ?? false
    }
    return ThreadSanitizerLog.races(in: log, packagePath: packagePath).filter { race in
      race.accesses.contains(where: madeByThePackage) && !mutexes.guardsEveryOwnAccess(of: race, in: packagePath)
    }
  }

  /// The binary's arguments that run `tests`, of one framework, in one process.
  static func arguments(_ tests: [PackageTest]) -> [String] {
    switch tests.last?.framework ?? .xctest {
    case .xctest: ["--testing-library", "xctest", tests.map(\.id).joined(separator: ",")]
    case .swiftTesting: ["--testing-library", "swift-testing", "--no-parallel"] + TestLaunch.selection(tests, of: [])
    }
  }
}
