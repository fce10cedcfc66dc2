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
      let orphans = children().filter { !keep.contains($0) }
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

  /// This process's children. A scenario run looks after each replicate, so this reads what the
  /// kernel keeps of them, each thread's `/proc/self/task/<tid>/children` (a child belongs to the
  /// thread that started it, an orphan to the thread the kernel handed it to): a few reads where
  /// a scan of every process on the machine was a third of the supervisor's time per worker with
  /// 65 processes (Speed.md). A kernel built without those files gets the scan.
  static func children() -> [pid_t] {
    hasChildrenFiles ? childrenOfEachThread() : children(of: getpid())
  }

  /// Whether this kernel keeps `children` files (`CONFIG_PROC_CHILDREN`).
  private static let hasChildrenFiles = access("/proc/thread-self/children", R_OK) == 0

  private static func childrenOfEachThread() -> [pid_t] {
    guard let threads = opendir("/proc/self/task") else { return [] }
    defer { closedir(threads) }
    var children: [pid_t] = []
    while let entry = readdir(threads) {
      let thread = withUnsafeBytes(of: entry.pointee.d_name) { name in decimal(name.prefix { $0 != 0 }) }
      // A thread that ended since the listing has no file left, and no children. A list of
      // children has no bound: read whole.
      guard let thread else { continue }
      let descriptor = open("/proc/self/task/\(thread)/children", O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0, let text = InheritedFile.readAll(descriptor) else { continue }
      children += text.split(separator: UInt8(ascii: " ")).compactMap { decimal($0.filter { $0 != 10 }) }
    }
    return children
  }

  /// The processes whose parent is `parent`, read from `/proc/<pid>/stat`, where the kernel keeps
  /// no list of children: every process of the machine, read with plain system calls into one
  /// buffer (through Foundation it cost each replicate about 0.8 ms, most of it making strings).
  private static func children(of parent: pid_t) -> [pid_t] {
    guard let directory = opendir("/proc") else { return [] }
    defer { closedir(directory) }
    var children: [pid_t] = []
    var buffer = [UInt8](repeating: 0, count: 1024)
    while let entry = readdir(directory) {
      let pid = withUnsafeBytes(of: entry.pointee.d_name) { name in decimal(name.prefix { $0 != 0 }) }
      if let pid, pid > 0, parentID(of: pid, buffer: &buffer) == parent { children.append(pid) }
    }
    return children
  }

  /// The fourth field of `/proc/<pid>/stat`, after the command name in parentheses (which may
  /// itself hold spaces and parentheses, hence the last `)`: the fields after it are numbers),
  /// read into `buffer`.
  private static func parentID(of pid: pid_t, buffer: inout [UInt8]) -> pid_t? {
    let descriptor = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    guard count > 0 else { return nil }
    let stat = buffer[..<count]
    guard let nameEnd = stat.lastIndex(of: UInt8(ascii: ")")) else { return nil }
    let fields = stat[(nameEnd + 1)...].split(separator: UInt8(ascii: " "), maxSplits: 3)
    return fields.count > 1 ? decimal(fields[1]) : nil
  }

  /// `digits` as a number, or nil when they are not all decimal digits (`/proc`'s other entries).
  private static func decimal(_ digits: some Collection<UInt8>) -> pid_t? {
    guard !digits.isEmpty, digits.count < 10 else { return nil }
    var value: pid_t = 0
    for digit in digits {
      guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
      value = value * 10 + pid_t(digit - UInt8(ascii: "0"))
    }
    return value
  }
}
