package import Foundation

/// What `flakelab ci` concludes: every test's pass and retries, and what fails the job. Derived
/// once; text, JUnit, markdown, annotations and JSON render it.
package struct CIRun: Sendable {
  /// The run's own ID: a history given the run twice (recorded, then its JSON imported) keeps it
  /// once.
  package var id = UUID().uuidString
  /// When the pass began.
  package var started = Date()
  /// The package's checkout, when it is one: what the history files the run under.
  package var git: GitState?
  package var machine: MachineInfo
  package var packagePath: String
  /// Retries of a test that failed, alone, each in a fresh process (`--retries`).
  package var retries: Int
  package var timeout: Duration
  package var failOnFlaky: Bool
  package var tests: [CITest]
  /// Set when Ctrl-C or SIGTERM cut the run short: the tests hold what finished.
  package var interrupted = false
  /// The quarantine file's path, when one was read.
  package var quarantineFile: String?
  /// Its entries that name no test of the package, and so quarantine nothing.
  package var staleQuarantine: [Quarantine.StaleEntry] = []
  /// Wall-clock seconds of the pass and of the retries.
  package var passSeconds = 0.0
  package var retrySeconds = 0.0

  package init(
    machine: MachineInfo = .current, packagePath: String, retries: Int, timeout: Duration, failOnFlaky: Bool,
    tests: [CITest]
  ) {
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
  /// each made (not quarantined ones, which are shown as quarantined).
  package var crashes: [CICrash] { CICrash.grouping(tests(.flaky)) }

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
