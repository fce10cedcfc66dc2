/// Bad input from the person running the lab: an unknown name, a bad number, a missing value.
///
/// The command line prints ``message`` as one line on stderr and exits with status 2. Nothing a
/// user types should end any other way.
package struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
  package let message: String

  package init(_ message: String) {
    self.message = message
  }

  package var description: String { message }
}
