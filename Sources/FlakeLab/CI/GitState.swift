import Foundation

/// The commit and branch a package's checkout is on, from git, when it is one.
package struct GitState: Sendable, Equatable {
  package let commit: String
  package let branch: String?

  package init(commit: String, branch: String?) {
    self.commit = commit
    self.branch = branch
  }

  /// The state of the checkout holding `path`; nil when git is missing or it is none.
  package static func of(_ path: String) -> GitState? {
    func git(_ arguments: [String]) -> String? {
      guard let result = try? CapturedProcess.run("git", ["-C", path] + arguments), result.status == 0 else { return nil }
      let text = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
      return text.isEmpty ? nil : text
    }
    guard let commit = git(["rev-parse", "HEAD"]) else { return nil }
    // A CI checkout is often a detached HEAD; GitHub Actions names the branch (a pull request's
    // head, else the pushed branch) in its environment.
    let environment = ProcessInfo.processInfo.environment
    let named = [environment["GITHUB_HEAD_REF"], environment["GITHUB_REF_NAME"]].compactMap { $0 }.first { !$0.isEmpty }
    let branch = git(["rev-parse", "--abbrev-ref", "HEAD"]).flatMap { $0 == "HEAD" ? nil : $0 } ?? named
    return GitState(commit: commit, branch: branch)
  }
}
