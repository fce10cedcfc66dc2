import Foundation
import Testing

/// A process-wide setting, as `Locale`, a singleton's flag or an environment variable is.
final class Settings: @unchecked Sendable {
  static let shared = Settings()
  private let lock = NSLock()
  private var _language = "en"
  private var _changed = false

  var language: String { lock.withLock { _language } }
  var hasChanged: Bool { lock.withLock { _changed } }

  func change(to language: String) {
    lock.withLock {
      _language = language
      _changed = language != "en"
    }
  }
}

/// Two tests that share the setting. The first changes it for a moment, which is harmless alone;
/// the second reads it, and fails whenever the first runs beside it. The second waits briefly for
/// the first to make the change, so that whenever they run side by side they overlap.
@Suite struct SharedSettingsTests {
  @Test func changesTheLanguage() async throws {
    Settings.shared.change(to: "fr")
    try await Task.sleep(for: .milliseconds(300))
    Settings.shared.change(to: "en")
  }

  @Test func readsTheLanguage() async throws {
    let deadline = ContinuousClock.now + .milliseconds(150)
    while !Settings.shared.hasChanged, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(5))
    }
    #expect(Settings.shared.language == "en")
  }
}
