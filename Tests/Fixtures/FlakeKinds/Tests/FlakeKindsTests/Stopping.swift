import Foundation
import Testing

/// Only when asked: a test that stops its own process (SIGSTOP) while its neighbour is in
/// flight, and that neighbour, which only takes its time. A stopped process hangs every test
/// in it; alone, the neighbour passes.
@Suite struct Stopping {
  @Test func stopsItsProcessWhenAsked() async throws {
    guard Misbehaving.isAsked else { return }
    try await Task.sleep(for: .milliseconds(50))
    kill(getpid(), SIGSTOP)
    // A process-directed stop can take effect a moment after kill returns: the test must not
    // end meanwhile, or it would pass and the process stop after it.
    try await Task.sleep(for: .seconds(3600))
  }

  @Test func takesItsTimeWhenAsked() async throws {
    guard Misbehaving.isAsked else { return }
    try await Task.sleep(for: .milliseconds(300))
  }
}
