import Foundation

/// An exclusive lock on a package's directory, held while the lab runs SwiftPM on it: SwiftPM's
/// build database takes one build at a time, and a second that meets the first fails with
/// "unable to load build file", which read as a package that does not build.
struct BuildLock {
  private let descriptor: Int32

  /// Waits for the lab's other builds of `package` to end; Ctrl-C or SIGTERM ends the wait.
  init(package: String) throws {
    descriptor = open(package, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { throw PackageError.noDirectory(path: package) }
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      guard errno == EWOULDBLOCK || errno == EINTR else { break }
      if InterruptSignal.isRaised {
        close(descriptor)
        throw LabInterrupted(stage: .build)
      }
      usleep(50_000)
    }
  }

  func release() {
    close(descriptor)
  }
}
