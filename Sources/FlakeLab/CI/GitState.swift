import Foundation

/// The commit and branch a package's checkout is on, from git, when it is one.
package struct GitState: Sendable, Equatable {
  package let commit: String
  package let branch: String?

  package init(commit: String, branch: String?) {
    self.commit = commit
    self.branch = branch
  }

  /// The state of the checkout holding `path`; nil when git is missing or it is none. One git
  /// process: `rev-parse HEAD --abbrev-ref HEAD` prints the commit, then the branch (`HEAD` when
  /// detached).
  package static func of(_ path: String) -> GitState? {
    guard let result = try? CapturedProcess.run("git", ["-C", path, "rev-parse", "HEAD", "--abbrev-ref", "HEAD"]),
      result.status == 0
    else { return nil }
    let lines = result.output.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
    guard let commit = lines.first, !commit.isEmpty else { return nil }
    // A CI checkout is often a detached HEAD; GitHub Actions names the branch (a pull request's
    // head, else the pushed branch) in its environment.
    let environment = ProcessInfo.processInfo.environment
    let named = [environment["GITHUB_HEAD_REF"], environment["GITHUB_REF_NAME"]].compactMap { $0 }.first { !$0.isEmpty }
    let branch = lines.dropFirst().first.flatMap { $0.isEmpty || $0 == "HEAD" ? nil : $0 } ?? named
    return GitState(commit: commit, branch: branch)
  }
}
