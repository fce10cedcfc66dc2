import Foundation

@testable import FlakeLab

/// The processes this test process started and their descendants, and no other: other work on
/// the machine may run the same programs.
///
/// The test process makes itself a child subreaper before it starts anything, so a process
/// flakelab left behind comes back to it as a child when flakelab ends, and is found here.
enum OwnProcesses {
  /// Set once, before the first process a test starts (``Flakelab`` asks for it).
  static let adoptOrphans: Void = {
    let prSetChildSubreaper: Int32 = 36
    SystemCalls.prctl(prSetChildSubreaper, 1)
  }()

  /// The descendants whose command line contains `text` still alive after up to five seconds: a
  /// process killed a moment ago may take that long to be gone (a test that gives it no time
  /// would be a timing test).
  static func left(_ text: String) -> [pid_t] {
    let deadline = Date(timeIntervalSinceNow: 5)
    while !living(text).isEmpty, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
    return living(text)
  }

  /// The living (not zombie) descendants of this process whose command line contains `text`.
  static func living(_ text: String) -> [pid_t] {
    let me = getpid()
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { pid_t($0) }.filter { pid in
      guard pid != me, let (_, state) = stat(pid), state != "Z", isDescendant(pid, of: me) else { return false }
      let command = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
      return String(decoding: command.map { $0 == 0 ? 32 : $0 }, as: UTF8.self).contains(text)
    }
  }

  private static func isDescendant(_ pid: pid_t, of ancestor: pid_t) -> Bool {
    var current = pid
    for _ in 0..<64 {
      guard let (parent, _) = stat(current), parent > 1 else { return false }
      if parent == ancestor { return true }
      current = parent
    }
    return false
  }

  /// The parent and the state letter in `/proc/<pid>/stat`.
  static func stat(_ pid: pid_t) -> (parent: pid_t, state: String)? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = text.lastIndex(of: ")")
    else { return nil }
    let fields = text[text.index(after: close)...].split(separator: " ")
    guard fields.count > 1, let parent = pid_t(fields[1]) else { return nil }
    return (parent, String(fields[0]))
  }
}
