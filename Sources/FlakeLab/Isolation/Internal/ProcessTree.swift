import Foundation

/// The processes a run starts, ended with it: every worker leads a process group of its own
/// (``ProcessSpawner``), and the supervisor is a child subreaper, so a process a test started
/// that outlives its worker, even one that left the group (`setsid`), comes back to the
/// supervisor as its child when the worker dies, and is killed and reaped.
///
/// What Linux cannot promise: a process that both leaves the group and was started by a
/// process that is still alive stays out of reach until that parent dies; and when the
/// supervisor itself is killed with SIGKILL, its workers die with it (``SupervisorLifetime``)
/// but their own children go to init.
enum ProcessTree {
  /// Linux's `PR_SET_CHILD_SUBREAPER`.
  private static let setChildSubreaper: Int32 = 36

  /// Makes orphaned descendants of this process its children, instead of init's.
  static func becomeSubreaper() {
    _ = SystemCalls.prctl(setChildSubreaper, 1)
  }

  /// Kills what is left of the process group `leader` led (its leader already reaped, or
  /// killed with it).
  static func killGroup(_ leader: pid_t) {
    kill(-leader, SIGKILL)
  }

  /// Kills and reaps every child of this process that is not in `keep`: descendants of ended
  /// workers, which came back here as orphans. Their own children come back in turn, so it
  /// goes on until no such child is left (or a bound of rounds, against a fork bomb).
  static func reapOrphans(keeping keep: Set<pid_t>) {
    for _ in 0..<16 {
      let orphans = children(of: getpid()).filter { !keep.contains($0) }
      guard !orphans.isEmpty else { return }
      for orphan in orphans {
        kill(-orphan, SIGKILL)
        kill(orphan, SIGKILL)
      }
      for orphan in orphans {
        var status: Int32 = 0
        while waitpid(orphan, &status, 0) < 0, errno == EINTR {}
      }
    }
  }

  /// The processes whose parent is `parent`, read from `/proc/<pid>/stat`.
  static func children(of parent: pid_t) -> [pid_t] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { entry -> pid_t? in
      guard let pid = pid_t(entry), parentID(of: pid) == parent else { return nil }
      return pid
    }
  }

  /// The fourth field of `/proc/<pid>/stat`, after the command name in parentheses (which may
  /// itself hold spaces and parentheses, hence the last `)`).
  static func parentID(of pid: pid_t) -> pid_t? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return nil }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    return fields.count > 1 ? pid_t(fields[1]) : nil
  }
}
