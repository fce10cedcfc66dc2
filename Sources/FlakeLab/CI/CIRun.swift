package import Foundation

/// What `flakelab ci` concludes: every test's pass and retries, and what fails the job; what
/// follows from them (the verdicts, the job's status) is computed from them where asked. Text,
/// JUnit, markdown, annotations and JSON render it.
package struct CIRun: Sendable, Equatable {
  /// A crash of the pass's process that none of the tests in flight caused alone, with the flaky
  /// tests it made (each passed alone). Reports show it once, not as a flaky test each.
  package struct PassCrash: Sendable, Equatable {
    package let crash: CrashBesideOthers
    /// The flaky tests it was charged to, in the run's order.
    package fileprivate(set) var tests: [CITest]
  }

  /// What the command knows of the run beside its tests, given to the runner so that the run it
  /// builds is whole: nothing is patched in after.
  package struct Context: Sendable, Equatable {
    /// The package's checkout, when it is one: what the history files the run under.
    package var git: GitState?
    /// The `--filter` and `--skip` arguments the run chose its tests with, for the pass's replay.
    package var selection: [String] = []
    /// The executable replay commands name (``Report/program``).
    package var program = "flakelab"
    /// The quarantine file's path, when one was read.
    package var quarantineFile: String?
    /// Its entries that name no test of the package, and so quarantine nothing.
    package var staleQuarantine: [Quarantine.StaleEntry] = []

    package init(
      git: GitState? = nil, selection: [String] = [], program: String = "flakelab", quarantineFile: String? = nil,
      staleQuarantine: [Quarantine.StaleEntry] = []
    ) {
      self.git = git
      self.selection = selection
      self.program = program
      self.quarantineFile = quarantineFile
      self.staleQuarantine = staleQuarantine
    }
  }

  /// The run's own ID: a history given the run twice (recorded, then its JSON imported) keeps it
  /// once.
  package var id = UUID().uuidString
  /// When the pass began.
  package var started = Date()
  package var machine: MachineInfo
  package var packagePath: String
  /// Retries of a test that failed, alone, each in a fresh process (`--retries`).
  package var retries: Int
  package var timeout: Duration
  package var failOnFlaky: Bool
  /// The seed that decided every process's random values and hash order (`--seed`). A replay
  /// with it repeats what it decides; the order of the threads under the global executor stays
  /// the machine's.
  package var seed: UInt64
  package var tests: [CITest]
  /// Set when Ctrl-C or SIGTERM cut the run short: the tests hold what finished.
  package var interrupted = false
  package var context: Context
  /// Wall-clock seconds of the pass and of the retries.
  package var passSeconds = 0.0
  package var retrySeconds = 0.0
  /// What the thread sanitizer's part took, or why it did not run; nil where it was not asked.
  package var sanitizer: SanitizerSummary?

  package init(
    machine: MachineInfo = .current, packagePath: String, retries: Int, timeout: Duration, failOnFlaky: Bool,
    seed: UInt64, tests: [CITest], context: Context = Context()
  ) {
    self.context = context
    self.seed = seed
    self.machine = machine
    self.packagePath = packagePath
    self.retries = retries
    self.timeout = timeout
    self.failOnFlaky = failOnFlaky
    self.tests = tests
  }

  package func tests(_ status: CITest.Status) -> [CITest] {
    tests.filter { $0.status == status && $0.quarantine == nil }
  }

  /// The crashes of the pass that none of the tests in flight caused alone, with the flaky tests
  /// each made (not quarantined ones, which are shown as quarantined), in the order first seen.
  package var crashes: [PassCrash] {
    var crashes: [(inFlight: Set<PackageTest>, how: String, tests: [CITest])] = []
    for test in tests(.flaky) where test.isFlakyBesideACrash {
      guard case .crashed(let crash)? = test.attempts.first?.outcome else { continue }
      let inFlight = Set(crash.beside + [test.test])
      if let index = crashes.firstIndex(where: { $0.inFlight == inFlight }) {
        crashes[index].tests.append(test)
      } else {
        crashes.append((inFlight, crash.how, [test]))
      }
    }
    return crashes.map {
      PassCrash(crash: CrashBesideOthers(inFlight: $0.inFlight.map(\.id), how: $0.how), tests: $0.tests)
    }
  }

  /// The tests every format shows one by one, in this order: those that failed for good or
  /// every time in the suite, those that never started (unless an interrupt kept them from it,
  /// which the summary says), the flaky ones that failed on their own, the quarantined ones that
  /// did not pass, and those that passed though a failure recorded while they ran was shown
  /// another test's. Flaky tests of a crash are shown with their crash (``crashes``).
  package var shown: [CITest] {
    tests(.failed) + tests(.failsInSuite) + tests(.interrupted) + (interrupted ? [] : tests(.notRun)) + flakyOnTheirOwn
      + quarantined.filter { $0.status != .passed } + tests(.passed).filter { $0.attempts.first?.origin?.shown == true }
  }

  /// The tests of `test`'s framework that ran before it in the pass, in order (XCTest runs them
  /// one after another), or beside it (Swift Testing runs them side by side): those its runs in
  /// the suite again ran with it.
  package func predecessors(of test: CITest) -> [PackageTest] {
    let group = tests.map(\.test).filter { $0.framework == test.test.framework && $0 != test.test }
    guard test.test.framework == .xctest, let position = tests.firstIndex(where: { $0.test == test.test }) else {
      return group
    }
    return Array(tests[..<position].map(\.test).filter { $0.framework == .xctest })
  }

  /// The flaky tests that are not part of a crash: each failed on its own in the pass.
  package var flakyOnTheirOwn: [CITest] { tests(.flaky).filter { !$0.isFlakyBesideACrash } }

  /// Quarantined tests, those whose failures were kept from the job and those that passed.
  package var quarantined: [CITest] { tests.filter { $0.quarantine != nil } }

  /// The tests that fail the job.
  package var failingTheJob: [CITest] { tests.filter { $0.failsTheJob(failOnFlaky: failOnFlaky) } }

  /// Whether the job fails: a test failed for good or never started (or was flaky, with
  /// `--fail-on-flaky`). An interrupted run ends with its own status.
  package var failsTheJob: Bool { !failingTheJob.isEmpty }
}
