import Foundation
import Testing
import XCTest

// Tests that fail on a process's first run and never once it is warm, on one queue as on many.
// Right: first-run.

/// A catalog loaded lazily: the first call in each process answers before the load, with nothing.
enum Catalog {
  nonisolated(unsafe) private static var loaded: [String]?

  static func names() -> [String]? {
    defer { if loaded == nil { loaded = ["espresso", "flat white"] } }
    return loaded
  }
}

@Suite struct FirstRuns {
  @Test func catalogHasNames() {
    #expect(Catalog.names()?.isEmpty == false)
  }
}

/// Settings read from disk by a task the first access starts: until it has run, defaults.
final class StoredSettings: @unchecked Sendable {
  static let shared = StoredSettings()
  private let lock = NSLock()
  private var theme: String?

  private init() {
    Task { self.lock.withLock { self.theme = "dark" } }
  }

  var currentTheme: String? { lock.withLock { theme } }
}

final class StoredSettingsTests: XCTestCase {
  /// The first test to touch the settings finds them not yet read (always on one queue, mostly
  /// on many); later ones find them.
  func testReadsTheStoredTheme() {
    XCTAssertEqual(StoredSettings.shared.currentTheme, "dark")
  }
}
