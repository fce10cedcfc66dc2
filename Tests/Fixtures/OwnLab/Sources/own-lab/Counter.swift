import FlakeLab

/// A tap counter whose taps load their increment from a nonisolated endpoint, and its test.
///
/// `tap()` starts a task on the main actor that awaits the endpoint, off the actor, before it
/// counts. The naive test yields once and checks. Under the serial executor every job waits its
/// turn on one queue, and the increment is in before the test resumes, every time; under the
/// global executor it usually is not. The awaited test waits for the task `tap()` returns.
@MainActor
final class Counter {
  private(set) var count = 0
  private let increment: @Sendable () async -> Int

  init(increment: @escaping @Sendable () async -> Int) {
    self.increment = increment
  }

  @discardableResult
  func tap() -> Task<Void, Never> {
    Task { count += await increment() }
  }
}

/// The endpoint: it suspends once before it answers, as a network call would.
@Sendable func loadIncrement() async -> Int {
  await Task.yield()
  return 1
}

let counter = Scenario(
  name: "counter",
  summary: "a tap counts once its increment has loaded",
  source: "FlakeLab's OwnLab fixture: a lab of one's own",
  variants: [
    Variant(
      name: "naive", summary: "taps, yields once, checks the count",
      claims: [
        .global: .canFail, .serial: .neverFails, .fifo: .neverFails, .seeded: .canFail,
        .detached: .canFail,
      ]
    ) { iteration in
      let model = await Counter(increment: loadIncrement)
      await model.tap()
      await Task.yield()
      let count = await model.count
      iteration.expect(count == 1, "the count was \(count) right after the tap")
    },
    Variant(
      name: "awaited", summary: "taps, awaits the tap's task, checks the count",
      claims: [
        .global: .neverFails, .serial: .neverFails, .fifo: .neverFails, .seeded: .neverFails,
        .detached: .neverFails,
      ]
    ) { iteration in
      let model = await Counter(increment: loadIncrement)
      await model.tap().value
      let count = await model.count
      iteration.expect(count == 1, "the count was \(count) after the tap finished")
    },
  ])
