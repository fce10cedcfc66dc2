import Foundation

/// A system call that failed: what was attempted, and `errno` then. The command line words it,
/// as an internal error: nothing a person typed makes these fail.
package struct SystemError: Error, Equatable {
  package let attempt: String
  package let errno: Int32

  init(_ attempt: String) {
    self.attempt = attempt
    errno = Foundation.errno
  }
}

/// A `flakelab worker` started by hand: its descriptor 3 is not the channel a supervisor hands
/// its workers.
package struct NotAnOutcomeChannel: Error, Equatable {
  package let descriptor: Int32
}
