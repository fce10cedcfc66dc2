package import FlakeLab
package import Foundation

/// A race of a test, whichever run reported it: what a gate on new races compares.
package struct RaceID: Sendable, Hashable {
  package let test: String
  package let lines: [String]

  package init(test: String, lines: [String]) {
    self.test = test
    self.lines = lines
  }
}

/// One run as the history keeps it: where it came from (`source`, which makes a second import of
/// the same run add nothing), what ran it, when, on which commit and branch, machine and
/// toolchain, and each test's status with its attempts and failures.
package struct RecordedRun: Sendable, Equatable {
  /// What ran the tests, which decides what a run says of a rate.
  package enum Kind: String, Sendable, CaseIterable {
    /// `flakelab ci`: the suite once, failures retried. Its first attempts are CI runs.
    case ci
    /// Any runner's JUnit XML (`swift test --xunit-output`, xcodebuild's through other tools):
    /// one attempt a test, a CI run too.
    case junit
    /// `flakelab test`: a lab's many passes. Its verdicts are evidence on their commit, never a CI
    /// rate (hundreds of passes would outweigh every CI run).
    case lab = "test"

    /// Whether its first attempts are CI runs, which a CI failure rate counts.
    package var isCI: Bool {
      switch self {
      case .ci, .junit: true
      case .lab: false
      }
    }
  }

  /// What ran it, field by field, as far as its source said: a JUnit file names its host, a
  /// FlakeLab run its cores, system and Swift.
  package struct Machine: Sendable, Equatable {
    package var host: String?
    package var cores: Int?
    package var os: String?
    package var swift: String?

    package init(host: String? = nil, cores: Int? = nil, os: String? = nil, swift: String? = nil) {
      self.host = host
      self.cores = cores
      self.os = os
      self.swift = swift
    }

    /// A FlakeLab run's machine.
    package init(_ machine: MachineInfo) {
      self.init(cores: machine.cores, os: machine.os, swift: machine.swift)
    }
  }

  /// A race the thread sanitizer reported in a test's sanitized runs (`--sanitize`), as a history
  /// keeps it: by its two lines from the package's directory, which name it on any machine.
  package struct Race: Sendable, Equatable {
    /// The racing accesses' lines (`Sources/M/Counter.swift:5`), sorted: the race's identity.
    package let lines: [String]
    /// The global's name where the memory is one.
    package let variable: String?
    /// The sanitized processes of the run that reported it.
    package let runs: Int

    package init(lines: [String], variable: String?, runs: Int) {
      self.lines = lines
      self.variable = variable
      self.runs = runs
    }

    /// A run's evidence of a test's races, its lines from `packagePath`.
    static func races(in evidence: RaceEvidence, packagePath: String) -> [Race] {
      evidence.races.map { seen in
        Race(lines: seen.race.key(in: packagePath), variable: seen.race.variable, runs: seen.runs)
      }
    }
  }

  package struct Result: Sendable, Equatable {
    package let test: String
    package let status: CITest.Status
    /// Times the test ran (for a lab run, iterations), and of those, the ones that did not pass.
    package let attempts: Int
    package let failures: Int
    /// Whether it is flaky only by a crash of a process that none of the tests in flight caused
    /// alone (``CITest/isFlakyBesideACrash``): no evidence about this test.
    package let besideACrash: Bool
    /// The processes that ran it under the thread sanitizer, nil when none did: a test never
    /// sanitized says nothing of its races.
    package let sanitizedRuns: Int?
    /// The races those processes reported (a race is no failure: status and counts ignore it).
    package let races: [Race]

    package init(
      test: String, status: CITest.Status, attempts: Int, failures: Int, besideACrash: Bool = false,
      sanitizedRuns: Int? = nil, races: [Race] = []
    ) {
      self.test = test
      self.status = status
      self.attempts = attempts
      self.failures = failures
      self.besideACrash = besideACrash
      self.sanitizedRuns = sanitizedRuns
      self.races = races
    }
  }

  package let source: String
  package let kind: Kind
  package let started: Date
  package let commit: String?
  package let branch: String?
  package let machine: Machine
  /// The seed that decided the run's random values and hash order, when FlakeLab drew one.
  package let seed: UInt64?
  package var results: [Result]

  package init(
    source: String, kind: Kind, started: Date, commit: String?, branch: String?, machine: Machine = Machine(),
    seed: UInt64? = nil, results: [Result]
  ) {
    self.source = source
    self.kind = kind
    // The history keeps seconds: a run read back equals the run stored.
    self.started = Timestamp.second(of: started)
    self.commit = commit
    self.branch = branch
    self.machine = machine
    self.seed = seed
    self.results = results
  }

  /// The source of a `flakelab ci` run: its own ID, whichever of its files it comes from.
  package static func source(ofCIRun id: String) -> String { "flakelab-ci:" + id }

  /// A `flakelab ci` run, under its own ID, so that its JSON or JUnit imported later adds nothing.
  package init(_ run: CIRun) {
    self.init(
      source: Self.source(ofCIRun: run.id), kind: .ci, started: run.started, commit: run.context.git?.commit,
      branch: run.context.git?.branch,
      machine: Machine(run.machine), seed: run.seed,
      results: run.tests.map { test in
        Result(
          test: test.test.id, status: test.status, attempts: test.attempts.count,
          failures: test.attempts.filter(\.failed).count, besideACrash: test.isFlakyBesideACrash,
          sanitizedRuns: test.races?.runs,
          races: test.races.map { Race.races(in: $0, packagePath: run.packagePath) } ?? [])
      })
  }

  /// A `flakelab test` run: each test's verdict, over every iteration the lab ran of it. Its
  /// source is its JSON report's digest, so that the report's file imported later adds nothing.
  package init(_ report: Report, started: Date, git: GitState?) {
    self.init(
      report, source: Self.source(ofReport: ReportJSON.document(report)), started: started, commit: git?.commit,
      branch: git?.branch)
  }

  init(_ report: Report, source: String, started: Date, commit: String?, branch: String?) {
    self.init(
      source: source, kind: .lab, started: started, commit: commit, branch: branch, machine: Machine(report.machine),
      seed: report.seed,
      results: report.tests.map { finding in
        let ran = finding.runs.reduce(0) { $0 + $1.tally.ran }
        let failed = finding.runs.reduce(0) { $0 + $1.tally.notPassed }
        return Result(
          test: finding.test.id, status: Self.status(finding.verdict), attempts: ran, failures: failed,
          sanitizedRuns: finding.races?.runs,
          races: finding.races.map { Race.races(in: $0, packagePath: finding.packagePath ?? "/") } ?? [])
      })
  }

  /// A report file's source: its content's SHA-256.
  /// Of its content, not its bytes: the same report re-indented is the same run. The digest is
  /// of the report as the lab writes it (compact, a final newline), as histories have kept it.
  package static func source(ofReport document: JSONValue) -> String {
    "report-sha256:" + SHA256.hex(of: Array((document.serialized() + "\n").utf8))
  }

  /// A lab's verdict as a status: stable passed, flaky flaky, failing failed.
  static func status(_ verdict: TestVerdict) -> CITest.Status {
    switch verdict {
    case .stable: .passed
    case .flaky: .flaky
    case .failing: .failed
    case .skipped: .skipped
    case .notRun: .notRun
    }
  }
}
