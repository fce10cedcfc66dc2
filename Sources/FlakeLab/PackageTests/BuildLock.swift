import Foundation

/// An exclusive lock on a package's directory, held while the lab runs SwiftPM on it: SwiftPM's
/// build database takes one build at a time, and a second that meets the first fails with
/// "unable to load build file", which read as a package that does not build.
struct BuildLock {
  private let descriptor: Int32

  /// Waits for the lab's other builds of `package` to end, telling `onWait` once when it has to
  /// (a wait with no word looks like a hang); Ctrl-C or SIGTERM ends the wait.
  init(package: String, onWait: (String) -> Void = { _ in }) throws {
    descriptor = open(package, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { throw PackageError.noDirectory(path: package) }
    var told = false
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      guard errno == EWOULDBLOCK || errno == EINTR else { break }
      if InterruptSignal.isRaised {
        close(descriptor)
        throw LabInterrupted(stage: .build)
      }
      if !told, errno == EWOULDBLOCK {
        onWait("waiting for another flakelab's build of \(package) to end (SwiftPM builds one at a time)")
        told = true
      }
      usleep(50_000)
    }
  }

  func release() {
    close(descriptor)
  }
}
