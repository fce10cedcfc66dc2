import Foundation

/// Starts the processes the lab runs with `posix_spawn`, each in a process group of its own.
///
/// - A worker's outcome feed becomes its descriptor `channelDescriptor`: 3 for a scenario
///   worker, a number drawn at random for a user's test process (``TestLaunch``).
/// - Its standard output and standard error both go to one pipe the supervisor reads, so what a
///   scenario prints can never corrupt the channel and the last lines before a crash are kept.
/// - The process group lets Ctrl-C at a terminal reach only the lab, which stops its processes
///   itself and still reports what they measured, and lets the lab end everything a process
///   started with it (``ProcessTree``).
/// - Signals start unblocked and SIGPIPE at its default, whatever the lab set for itself.
enum ProcessSpawner {
  struct Spawned {
    let pid: pid_t
    /// The read end of the worker's combined stdout and stderr, non-blocking.
    let output: Int32
  }

  /// Where a scenario worker finds its outcome channel.
  static let channelDescriptor: Int32 = 3

  /// - Parameter inherited: files the process finds at their numbers.
  static func spawn(
    executable: String, arguments: [String], environment: [String: String], channel: Int32,
    as channelDescriptor: Int32 = channelDescriptor, inherited: [InheritedFile] = []
  ) throws -> Spawned {
    // Read every 20 ms while a test runs (`Supervisor.eventReadInterval`): room for what a
    // chatty test prints meanwhile, so that it does not wait on a full pipe.
    let pipe = try PipeEnds(capacity: 1 << 20)
    defer { close(pipe.writeEnd) }
    let pid: pid_t
    do {
      pid = try launch(executable, arguments, environment: environment) { actions in
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipe.writeEnd, 1)
        posix_spawn_file_actions_adddup2(&actions, pipe.writeEnd, 2)
        posix_spawn_file_actions_adddup2(&actions, channel, channelDescriptor)
        for file in inherited { posix_spawn_file_actions_adddup2(&actions, file.descriptor, file.number) }
      }
    } catch {
      close(pipe.readEnd)
      throw error
    }
    pipe.makeReadEndNonBlocking()
    return Spawned(pid: pid, output: pipe.readEnd)
  }

  /// Starts `executable` (looked up on `PATH` when it has no slash) as the leader of a new
  /// process group, with the descriptors `wire` sets up.
  static func launch(
    _ executable: String, _ arguments: [String], environment: [String: String],
    wire: (inout posix_spawn_file_actions_t) throws -> Void
  ) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    try wire(&actions)

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    posix_spawnattr_setpgroup(&attributes, 0)
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    sigaddset(&defaults, SIGPIPE)
    posix_spawnattr_setsigdefault(&attributes, &defaults)

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var pid = pid_t()
    let status =
      executable.utf8.contains(UInt8(ascii: "/"))
      ? posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
      : posix_spawnp(&pid, executable, &actions, &attributes, argv, envp)
    guard status == 0 else {
      errno = status
      throw SystemError("posix_spawn \(executable)")
    }
    return pid
  }
}
