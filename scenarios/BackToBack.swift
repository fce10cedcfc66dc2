import FlakeLab

/// Episode 239's and 241's back-to-back test of ``NumberFactModel``: tap "get fact" twice; the
/// first request answers after the second, and the second answer must win.
///
/// `getFactButtonTapped()` cancels the previous request, but a cancelled task still delivers
/// whatever its endpoint returns, and its `defer` clears `factTask` for the newer request, so the
/// order in which the two taps and answers interleave decides what `fact` ends as.
@MainActor
private func backToBackTest(
  _ iteration: Iteration,
  firstAnswer: @escaping @Sendable () async -> String,
  secondAnswer: @escaping @Sendable () async -> String,
  betweenTapsAndAwaits: () async throws -> Void
) async throws {
  // The episode counts calls with `LockIsolated` in two critical sections, increment then read;
  // kept as written.
  let callCount = LockIsolated(0)
  let model = NumberFactModel(numberFact: { _ in
    callCount.withValue { $0 += 1 }
    if callCount.value == 1 {
      return await firstAnswer()
    } else if callCount.value == 2 {
      return await secondAnswer()
    } else {
      fatalError("the endpoint was called \(callCount.value) times")
    }
  })
  let task0 = Task { await model.getFactButtonTapped() }
  let task1 = Task { await model.getFactButtonTapped() }
  try await betweenTapsAndAwaits()
  await task0.value
  await task1.value
  iteration.expect(
    model.fact == "0 is a great number.",
    "fact was \(model.fact.map { "'\($0)'" } ?? "nil") after both requests finished")
}

let backToBack = Scenario(
  name: "backToBack",
  summary: "two taps of \"get fact\"; the second request's answer must win",
  source: "Point-Free, Reliable Async Tests, episodes 239 and 241 (testBackToBackGetFact)",
  variants: [
    Variant(
      name: "streams",
      summary: "each call waits on its own stream; feed the second, sleep 100 ms, feed the first",
      realTimeWait: .milliseconds(100),
      claims: [.global: .canFail, .serial: .neverFails, .fifo: .neverFails]
    ) { @MainActor iteration in
      let (fact0, feed0) = AsyncStream.makeStream(of: String.self)
      let (fact1, feed1) = AsyncStream.makeStream(of: String.self)
      try await backToBackTest(
        iteration,
        firstAnswer: { await fact0.first(where: { _ in true }) ?? "" },
        secondAnswer: { await fact1.first(where: { _ in true }) ?? "" }
      ) {
        await Task.yield()
        feed1.yield("0 is a great number.")
        try await Task.sleep(for: .milliseconds(100))
        feed0.yield("0 is a better number.")
      }
    },
    Variant(
      name: "serialForm",
      summary: "the endpoint answers at once by call count; the test yields once (episode 241)",
      claims: [.global: .canPass, .serial: .neverFails, .fifo: .neverFails]
    ) { @MainActor iteration in
      try await backToBackTest(
        iteration,
        firstAnswer: { "0 is a better number." },
        secondAnswer: { "0 is a great number." }
      ) {
        await Task.yield()
      }
    },
  ]
)
