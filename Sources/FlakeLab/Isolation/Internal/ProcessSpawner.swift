import Foundation

/// Starts a worker process with `posix_spawn`, wired for supervision.
///
/// - The outcome feed's descriptor becomes the worker's descriptor `channelDescriptor`: 3 for
///   a scenario worker, a number drawn at random for a user's test process (``TestLaunch``).
/// - Its standard output and standard error both go to one pipe the supervisor reads, so what a
///   scenario prints can never corrupt the channel and the last lines before a crash are kept.
/// - It gets a process group of its own, so Ctrl-C at a terminal reaches only the supervisor,
///   which stops the workers itself and still reports what they measured.
enum ProcessSpawner {
  struct Spawned {
    let pid: pid_t
    /// The read end of the worker's combined stdout and stderr, non-blocking.
    let output: Int32
  }

  /// Where a scenario worker finds its outcome channel.
  static let channelDescriptor: Int32 = 3

  static func spawn(
    executable: String, arguments: [String], environment: [String: String], channel: Int32,
    as channelDescriptor: Int32 = channelDescriptor
  ) throws -> Spawned {
    let pipe = try PipeEnds()
    let (readEnd, writeEnd) = (pipe.readEnd, pipe.writeEnd)
    defer { close(writeEnd) }

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
    posix_spawn_file_actions_adddup2(&actions, writeEnd, 2)
    posix_spawn_file_actions_adddup2(&actions, channel, channelDescriptor)

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK))
    posix_spawnattr_setpgroup(&attributes, 0)
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var pid = pid_t()
    let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    guard status == 0 else {
      close(readEnd)
      errno = status
      throw SystemError("posix_spawn \(executable)")
    }
    pipe.makeReadEndNonBlocking()
    return Spawned(pid: pid, output: readEnd)
  }
}
