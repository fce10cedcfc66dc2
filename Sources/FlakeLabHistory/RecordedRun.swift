package import FlakeLab
import Foundation

/// One run as the history keeps it: where it came from (`source`, which makes a second import of
/// the same file add nothing), when, on which commit and branch, machine and toolchain, and each
/// test's status with its attempts and failures.
package struct RecordedRun: Sendable, Equatable {
  package struct Result: Sendable, Equatable {
    package let test: String
    /// `passed`, `flaky`, `failed`, `skipped` or `notRun`, as ``CITest/Status`` names them.
    package let status: String
    package let attempts: Int
    package let failures: Int
  }

  package let source: String
  package let command: String
  /// ISO 8601, UTC.
  package let started: String
  package let commit: String?
  package let branch: String?
  package let machine: String
  package let toolchain: String
  package let results: [Result]

  /// A `flakelab ci` run that has just ended, on `git`'s commit and branch.
  package init(_ run: CIRun, git: GitState?) {
    source = "flakelab-ci:" + UUID().uuidString
    command = "ci"
    started = Self.timestamp(Date(timeIntervalSinceNow: -(run.passSeconds + run.retrySeconds)))
    commit = git?.commit
    branch = git?.branch
    machine = "\(run.machine.cores) cores, \(run.machine.os)"
    toolchain = "Swift \(run.machine.swift)"
    results = run.tests.map { test in
      Result(
        test: test.test.id, status: test.status.rawValue, attempts: test.attempts.count,
        failures: test.attempts.filter(\.failed).count)
    }
  }

  static func timestamp(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: date)
  }
}

/// The commit and branch a package's checkout is on, from git, when it is one.
package struct GitState: Sendable, Equatable {
  package let commit: String
  package let branch: String?

  /// The state of the checkout holding `path`; nil when git is missing or it is none.
  package static func of(_ path: String) -> GitState? {
    func git(_ arguments: [String]) -> String? {
      guard let result = try? CapturedProcess.run("git", ["-C", path] + arguments), result.status == 0 else { return nil }
      let text = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
      return text.isEmpty ? nil : text
    }
    guard let commit = git(["rev-parse", "HEAD"]) else { return nil }
    let branch = git(["rev-parse", "--abbrev-ref", "HEAD"]).flatMap { $0 == "HEAD" ? nil : $0 }
    return GitState(commit: commit, branch: branch)
  }
}
