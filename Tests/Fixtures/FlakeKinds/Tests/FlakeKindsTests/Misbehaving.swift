import Foundation
import Testing

/// Only with FLAKEKINDS_MISBEHAVE=1 in the environment (the lab's own tests set it): one test
/// that crashes its process and one that never finishes, every time. Otherwise both pass.
@Suite struct Misbehaving {
  static let isAsked = ProcessInfo.processInfo.environment["FLAKEKINDS_MISBEHAVE"] == "1"

  @Test func crashesWhenAsked() {
    if Self.isAsked { fatalError("asked to crash") }
  }

  @Test func hangsWhenAsked() async throws {
    while Self.isAsked { try await Task.sleep(for: .seconds(1)) }
  }
}
