import Foundation
import Testing

@Test func adds() {
  #expect(1 + 1 == 2)
}

@Test func concatenates() {
  #expect("a" + "b" == "ab")
}

/// Fails the first time it runs, passes after: flaky.
@Test func failsOnce() {
  #expect(!State.isFirstRun("failsOnce"), "the first run fails")
}

/// Fails every time: broken.
@Test func broken() {
  #expect(State.directory == nil, "broken on purpose")
}

/// Broken too; the lab's tests quarantine it.
@Test func brokenButQuarantined() {
  #expect(State.directory == nil, "broken and quarantined")
}

/// Crashes its process the first time, passes after.
@Test func crashesOnce() {
  if State.isFirstRun("crashesOnce") { fatalError("crashes the first time") }
}

/// Never finishes when asked to misbehave.
@Test func hangs() async throws {
  while State.directory != nil { try await Task.sleep(for: .seconds(1)) }
}
