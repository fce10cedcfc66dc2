import NumberFacts
import Synchronization
import Testing

/// The README's `isLoading` test in its three forms, written with Swift Testing.
@Suite struct IsLoadingTests {
  /// Asserts right after spawning the task: the task has usually not started yet.
  @Test func naive() async {
    let model = NumberFactModel(getFact: { "\($0) is a good number." })
    let task = Task { await model.getFactButtonTapped() }
    #expect(model.isLoading)
    await task.value
    #expect(!model.isLoading)
  }

  /// One `Task.yield()` before asserting: the task may have run to its end by then.
  @Test func yield() async {
    let model = NumberFactModel(getFact: { "\($0) is a good number." })
    let task = Task { await model.getFactButtonTapped() }
    await Task.yield()
    #expect(model.isLoading)
    await task.value
    #expect(!model.isLoading)
  }

  /// The README's fix: the endpoint yields once before answering, the test yields once.
  @Test func endpointYield() async {
    let model = NumberFactModel(getFact: { number in
      await Task.yield()
      return "\(number) is a good number."
    })
    let task = Task { await model.getFactButtonTapped() }
    await Task.yield()
    #expect(model.isLoading)
    await task.value
    #expect(model.fact == "0 is a good number.")
    #expect(!model.isLoading)
  }

  /// Traps on every 100th run in a process, as a test with a rare crash does.
  @Test func crashesOnceInAHundred() {
    let run = crashRuns.add(1, ordering: .relaxed).newValue
    if run % 100 == 0 { fatalError("run \(run) of this process crashed on purpose") }
  }

  /// Waits for ever on every 50th run in a process, as a test whose continuation is never
  /// resumed does.
  @Test func hangsOnceInFifty() async {
    let run = hangRuns.add(1, ordering: .relaxed).newValue
    if run % 50 == 0 { await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in } }
  }
}

private let crashRuns = Atomic<Int>(0)
private let hangRuns = Atomic<Int>(0)
