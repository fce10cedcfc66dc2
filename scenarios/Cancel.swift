import FlakeLab

/// Episode 239's and 241's cancel test of ``NumberFactModel``: tap "get fact", tap "cancel"
/// while the request is in flight, and no fact must arrive.
///
/// The cancel tap only finds a request to cancel if the spawned task has already run far enough
/// to store it in `factTask`. When it has not, the request starts after the cancel, and with the
/// `never` endpoint it then waits forever: the iteration hangs rather than fails.
@MainActor
private func cancelTest(
  _ iteration: Iteration,
  numberFact: @escaping @Sendable (Int) async throws -> String,
  beforeCancel: () async -> Void,
  checkFactTaskCleared: Bool
) async {
  let model = NumberFactModel(numberFact: numberFact)
  let task = Task { await model.getFactButtonTapped() }
  await beforeCancel()
  model.cancelButtonTapped()
  await task.value
  iteration.expect(model.fact == nil, "fact was '\(model.fact ?? "")' after cancelling")
  if checkFactTaskCleared {
    iteration.expect(model.factTask == nil, "factTask was still set after cancelling")
  }
}

let cancel = Scenario(
  name: "cancel",
  summary: "tapping cancel while a fact loads leaves no fact",
  source: "Point-Free, Reliable Async Tests, episodes 239 and 241 (testCancel)",
  variants: [
    Variant(
      name: "never",
      summary: "endpoint suspends until cancelled; megaYield, then cancel (episode 239)",
      claims: [.global: .canPass, .serial: .neverFails, .fifo: .neverFails]
    ) { @MainActor iteration in
      await cancelTest(
        iteration,
        numberFact: { _ in try await Task.never() },
        beforeCancel: { await Task.megaYield() },
        checkFactTaskCleared: false)
    },
    Variant(
      name: "serialForm",
      summary: "endpoint yields, checks cancellation, answers; the test yields once (episode 241)",
      claims: [.global: .canFail, .serial: .neverFails, .fifo: .neverFails]
    ) { @MainActor iteration in
      await cancelTest(
        iteration,
        numberFact: { number in
          await Task.yield()
          try Task.checkCancellation()
          return "\(number) is a good number."
        },
        beforeCancel: { await Task.yield() },
        checkFactTaskCleared: true)
    },
  ]
)
