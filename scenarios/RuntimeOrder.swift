import FlakeLab

/// Episode 238's checks of what the runtime promises about order, and what it does not.
///
/// Neither test has a model: each asks whether the executor runs work in the order it was
/// created. Under the global executor task-group children start in whatever order the pool picks
/// them up, and tasks that yield resume when a thread is free; the serial executor runs both in
/// enqueue order, every time.
let runtimeOrder = Scenario(
  name: "runtimeOrder",
  summary: "does work start and resume in the order it was created?",
  source: "Point-Free, Reliable Async Tests, episode 238 (testTaskGroupStartOrder, testYieldScheduling)",
  variants: [
    Variant(
      name: "taskGroupStart",
      summary: "100 task-group children; their results arrive in order 1...100",
      claims: [.global: .canFail, .serial: .neverFails, .fifo: .neverFails]
    ) { iteration in
      let values = await withTaskGroup(of: [Int].self) { group in
        for index in 1...100 {
          group.addTask { [index] }
        }
        return await group.reduce(into: []) { $0 += $1 }
      }
      iteration.expect(values == Array(1...100), "children finished out of order")
    },
    Variant(
      name: "yieldScheduling",
      summary: "11 tasks each append, yield, append; all evens come before all odds",
      claims: [.global: .canFail, .serial: .neverFails, .fifo: .neverFails]
    ) { iteration in
      let values = LockIsolated<[Int]>([])
      let tasks = (0...10).map { n in
        Task {
          values.withValue { $0.append(n * 2) }
          await Task.yield()
          values.withValue { $0.append(n * 2 + 1) }
        }
      }
      for task in tasks { await task.value }
      let expected = (0...10).map { $0 * 2 } + (0...10).map { $0 * 2 + 1 }
      iteration.expect(values.value == expected, "tasks resumed out of creation order")
    },
  ]
)
