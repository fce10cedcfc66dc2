import Foundation

/// Where the tests keep what they did in earlier processes: nil when the lab's tests did not ask
/// them to misbehave.
enum State {
  static let directory = ProcessInfo.processInfo.environment["CIJOB_STATE"].flatMap { $0.isEmpty ? nil : $0 }

  /// Whether this is the first time `name` runs: its marker file is created only once.
  static func isFirstRun(_ name: String) -> Bool {
    guard let directory else { return false }
    let descriptor = open(directory + "/" + name, O_CREAT | O_EXCL | O_WRONLY, 0o600)
    guard descriptor >= 0 else { return false }
    close(descriptor)
    return true
  }
}
