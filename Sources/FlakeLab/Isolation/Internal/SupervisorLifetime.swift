import Foundation

/// Ties a worker process's life to its supervisor's: when the supervisor dies, even by SIGKILL
/// from a CI timeout, the kernel kills the worker, so no worker outlives the run it belongs to.
///
/// `posix_spawn` has no step between fork and exec, so the worker binds itself first thing:
/// `prctl(PR_SET_PDEATHSIG, SIGKILL)`, then a check that its parent is still the supervisor
/// named in its environment (which covers a supervisor that died before the call). The kernel
/// signals when the *thread* that spawned the worker ends; the supervisor spawns every worker
/// of a command from the one thread that runs its poll loop, which lives as long as the command.
package enum SupervisorLifetime {
  /// The variable that names the supervisor's process ID in a worker's environment.
  package static let variable = "FLAKELAB_SUPERVISOR_PID"

  /// Binds this process to the supervisor its environment names; does nothing in a process
  /// the lab did not start.
  package static func bind() {
    guard let text = getenv(variable), let supervisor = pid_t(String(cString: text)) else { return }
    let prSetPDeathSignal: Int32 = 1
    SystemCalls.prctl(prSetPDeathSignal, UInt(SIGKILL))
    if getppid() != supervisor { _exit(1) }
  }
}
