package import Foundation

/// A program run to its end with its output captured: `swift build`, a test binary's
/// `--list-tests`, and `flakelab` itself in this package's tests.
///
/// The program runs in a process group of its own, so that everything it starts can be stopped
/// with it: when the lab is interrupted (``InterruptSignal``) or the program outlives its time
/// limit, the whole group is killed and reaped before the call returns. What it started in
/// groups of their own (SwiftPM's compilers) the group's kill misses: the lab is a subreaper
/// (``ProcessTree``), so they come back to it when their parents die, and an interrupt, which
/// ends the lab's command, ends them too before the call returns. Left alone, they went on
/// compiling after the lab had exited, into the temporary directory it had removed.
package struct CapturedProcess {
  package let status: Int32
  /// The signal that ended the program, if one did (`status` is then 128 plus its number).
  package let signal: Int32?
  package let output: String
  package let errorOutput: String

  /// The program did not end within its time limit, and was killed with its group.
  package struct TimedOut: Error {
    package let limit: Duration
  }

  /// Ctrl-C or SIGTERM reached the lab while the program ran; it was killed with its group.
  package struct Interrupted: Error {}

  /// Runs `executable` (found on `PATH` when it has no slash) with `arguments`, in `directory`
  /// when one is given, with standard input empty.
  ///
  /// - Parameters:
  ///   - environment: the whole environment; nil passes the lab's own.
  ///   - timeLimit: how long the program may run before it is killed (``TimedOut``).
  ///   - discardingOutput: its output goes to `/dev/null`, and the call returns once it exits:
  ///     a child it leaves running with its output (a test's server) cannot hold the call until
  ///     the time limit, as it holds a pipe open. The result's output is then empty.
  /// - Returns: its exit status (128 + the signal's number when a signal ended it) and output.
  /// - Throws: ``TimedOut``, ``Interrupted``, or a failed system call.
  package static func run(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
    directory: URL? = nil, timeLimit: Duration? = nil, discardingOutput: Bool = false
  ) throws -> CapturedProcess {
    try InterruptSignal.watching {
      try spawnAndCollect(
        executable, arguments, environment: environment, directory: directory, timeLimit: timeLimit,
        discardingOutput: discardingOutput)
    }
  }

  private static func spawnAndCollect(
    _ executable: String, _ arguments: [String], environment: [String: String]?, directory: URL?, timeLimit: Duration?,
    discardingOutput: Bool
  ) throws -> CapturedProcess {
    ProcessTree.becomeSubreaper()
    if discardingOutput {
      let pid = try ProcessSpawner.launch(
        executable, arguments, environment: environment ?? ProcessInfo.processInfo.environment
      ) { actions in
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        if let directory { try SystemCalls.addChangeDirectory(&actions, directory.path) }
      }
      let (_, status) = try collect(
        pid, from: [], until: timeLimit.map { ContinuousClock.now + $0 }, limit: timeLimit)
      kill(-pid, SIGKILL)
      return CapturedProcess(waitStatus: status, output: [], errorOutput: [])
    }
    let output = try PipeEnds()
    let errorOutput = try PipeEnds()
    let pid: pid_t
    do {
      pid = try ProcessSpawner.launch(
        executable, arguments, environment: environment ?? ProcessInfo.processInfo.environment
      ) { actions in
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output.writeEnd, 1)
        posix_spawn_file_actions_adddup2(&actions, errorOutput.writeEnd, 2)
        if let directory { try SystemCalls.addChangeDirectory(&actions, directory.path) }
      }
    } catch {
      [output.writeEnd, output.readEnd, errorOutput.writeEnd, errorOutput.readEnd].forEach { close($0) }
      throw error
    }
    close(output.writeEnd)
    close(errorOutput.writeEnd)
    defer {
      close(output.readEnd)
      close(errorOutput.readEnd)
    }
    let (collected, status) = try collect(
      pid, from: [output.readEnd, errorOutput.readEnd], until: timeLimit.map { ContinuousClock.now + $0 },
      limit: timeLimit)
    // Whatever the program left behind in its group goes with it.
    kill(-pid, SIGKILL)
    return CapturedProcess(waitStatus: status, output: collected[0], errorOutput: collected[1])
  }

  /// The result of a program that ended with wait status `status`: its exit status, or 128 plus
  /// the signal that ended it.
  private init(waitStatus status: Int32, output: [UInt8], errorOutput: [UInt8]) {
    self.status = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + status & 0x7f
    signal = status & 0x7f == 0 ? nil : status & 0x7f
    self.output = String(decoding: output, as: UTF8.self)
    self.errorOutput = String(decoding: errorOutput, as: UTF8.self)
  }

  /// Reads both pipes as output arrives, so a full pipe never blocks the program, until it has
  /// exited; the poll wakes at least every 50 ms to see an interrupt or the deadline. A program
  /// closes its pipes a few milliseconds before its exit can be reaped: once both are closed,
  /// the poll waits on its exit descriptor, and only without one sleeps 2 ms at a time (a fixed
  /// 10 ms sleep there was a listing's every wait). Returns each pipe's bytes and the wait status.
  private static func collect(
    _ pid: pid_t, from pipes: [Int32], until deadline: ContinuousClock.Instant?, limit: Duration?
  ) throws -> ([[UInt8]], Int32) {
    var collected: [[UInt8]] = pipes.map { _ in [] }
    var open = pipes
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var status: Int32 = 0
    let exitDescriptor = SystemCalls.exitDescriptor(of: pid)
    defer { if exitDescriptor >= 0 { close(exitDescriptor) } }
    while true {
      if InterruptSignal.isRaised {
        stop(pid)
        ProcessTree.reapOrphans(keeping: [])
        throw Interrupted()
      }
      if let deadline, let limit, ContinuousClock.now > deadline {
        stop(pid)
        throw TimedOut(limit: limit)
      }
      if open.allSatisfy({ $0 < 0 }) {
        let reaped = waitpid(pid, &status, WNOHANG)
        if reaped == pid || (reaped < 0 && errno != EINTR) { return (collected, status) }
        if exitDescriptor >= 0 {
          var exit = pollfd(fd: exitDescriptor, events: Int16(POLLIN), revents: 0)
          _ = poll(&exit, 1, 50)
        } else {
          usleep(2_000)
        }
        continue
      }
      var descriptors = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      guard poll(&descriptors, nfds_t(descriptors.count), 50) >= 0 || errno == EINTR else {
        stop(pid)
        throw SystemError("poll")
      }
      for (slot, descriptor) in descriptors.enumerated() where descriptor.fd >= 0 && descriptor.revents != 0 {
        let count = read(descriptor.fd, &buffer, buffer.count)
        if count > 0 {
          collected[slot] += buffer[..<count]
        } else if count == 0 || errno != EINTR {
          open[slot] = -1
        }
      }
    }
  }

  /// Kills the program's whole process group and reaps the program.
  private static func stop(_ pid: pid_t) {
    kill(-pid, SIGKILL)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0, errno == EINTR {}
  }
}
