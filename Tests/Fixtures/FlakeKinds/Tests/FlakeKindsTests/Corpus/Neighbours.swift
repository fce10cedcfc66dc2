import Foundation
import Testing
import XCTest

// Tests failed by another test's leftovers or by state it changes while they overlap; alone each
// passes. Right: interference, naming the neighbour.

/// A file both tests use: one writes a log level into it for a moment, the other reads it while
/// they overlap (a parallel suite pass) and expects the default.
@Suite struct LogLevelFileTests {
  static let path = NSTemporaryDirectory() + "flakekinds-\(getpid())-log-level"

  @Test func writesTheLogLevelFile() async throws {
    try "trace".write(toFile: Self.path, atomically: true, encoding: .utf8)
    try await Task.sleep(for: .milliseconds(300))
    try FileManager.default.removeItem(atPath: Self.path)
  }

  @Test func readsTheDefaultLogLevel() async throws {
    try await Task.sleep(for: .milliseconds(50))
    #expect((try? String(contentsOfFile: Self.path, encoding: .utf8)) == nil)
  }
}

/// A registry of plugins, process-wide.
enum PluginRegistry {
  nonisolated(unsafe) static var plugins: [String] = []
}

/// One test registers a plugin and leaves it; the next in XCTest's order expects none.
final class PluginTests: XCTestCase {
  func testRegistersAPlugin() {
    PluginRegistry.plugins.append("markdown")
    XCTAssertEqual(PluginRegistry.plugins.last, "markdown")
  }

  func testStartsWithNoPlugins() {
    XCTAssertTrue(PluginRegistry.plugins.isEmpty)
  }
}
