/// The loop at the heart of every run: one iteration after another, each under the executor.
///
/// This is the path the lab's own overhead is measured on (`make bench`): per iteration it
/// allocates an ``Iteration``, asks the executor to run the body, and hands the outcome to the
/// sink. A fresh ``Iteration`` each time keeps a stray task of an earlier iteration from
/// recording into a later one.
@MainActor
package func runIterations<Sink: OutcomeSink>(
  of variant: Variant,
  on executor: any IterationExecutor,
  indices: Range<Int>,
  into sink: inout Sink
) async {
  for index in indices {
    let (outcome, schedule) = await runIteration(of: variant, index: index, on: executor)
    sink.record(outcome, at: index, schedule: schedule)
  }
}

/// One iteration: the body under the executor, its checks and a throw turned into an outcome.
@MainActor
package func runIteration(
  of variant: Variant, index: Int, on executor: any IterationExecutor
) async -> (Outcome, IterationSchedule?) {
  let iteration = Iteration(index: index)
  let schedule = await executor.run(iteration, variant.body)
  return (schedule?.deadlock.map { .deadlocked(observation: $0) } ?? iteration.outcome, schedule)
}
