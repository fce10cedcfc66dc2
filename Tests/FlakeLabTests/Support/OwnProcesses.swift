import Foundation
import Synchronization

@testable import FlakeLab

/// The processes this test process started and their descendants, and no other: other work on
/// the machine may run the same programs.
///
/// The test process makes itself a child subreaper before it starts anything, so a process
/// flakelab left behind comes back to it as a child when flakelab ends, and is found here.
enum OwnProcesses {
  /// Set once, before the first process a test starts (``Flakelab`` asks for it): orphans come
  /// back to this process, and an interrupt ends what it started before it ends the process.
  static let takeCharge: Void = {
    let prSetChildSubreaper: Int32 = 36
    SystemCalls.prctl(prSetChildSubreaper, 1)
    endWhatWasStartedOnInterrupt()
  }()

  private static let interruptPipe = Atomic<Int32>(-1)

  /// The runs of flakelab a test starts are in process groups of their own, as a user's are, so
  /// a terminal's Ctrl-C reaches only SwiftPM and this process: left alone, they ran on to their
  /// end (a stress test's hundred passes, most of a minute) after `make test` had stopped. On
  /// SIGINT or SIGTERM each child is interrupted, as a user interrupts a lab, what is left two
  /// seconds later is killed, and the process ends as the signal would have ended it. The handler
  /// only writes the signal's number to a pipe; a thread of its own does the rest.
  private static func endWhatWasStartedOnInterrupt() {
    // Closed on exec: no process a test starts holds it.
    guard let ends = try? PipeEnds() else { return }
    interruptPipe.store(ends.writeEnd, ordering: .sequentiallyConsistent)
    for signalNumber in [SIGINT, SIGTERM] {
      signal(signalNumber) { signalNumber in
        var byte = UInt8(truncatingIfNeeded: signalNumber)
        _ = write(OwnProcesses.interruptPipe.load(ordering: .sequentiallyConsistent), &byte, 1)
      }
    }
    let reader = ends.readEnd
    Thread.detachNewThread {
      var signalNumber: UInt8 = 0
      while read(reader, &signalNumber, 1) < 0, errno == EINTR {}
      let me = getpid()
      for pid in descendants() where stat(pid)?.parent == me { kill(pid, SIGINT) }
      let deadline = Date(timeIntervalSinceNow: 2)
      while !descendants().isEmpty, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
      for pid in descendants() { kill(pid, SIGKILL) }
      _exit(128 + Int32(signalNumber))
    }
  }

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
    descendants().filter { pid in
      let command = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
      return String(decoding: command.map { $0 == 0 ? 32 : $0 }, as: UTF8.self).contains(text)
    }
  }

  /// The living (not zombie) descendants of this process.
  private static func descendants() -> [pid_t] {
    let me = getpid()
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { pid_t($0) }.filter { pid in
      guard pid != me, let (_, state) = stat(pid), state != "Z" else { return false }
      return isDescendant(pid, of: me)
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
