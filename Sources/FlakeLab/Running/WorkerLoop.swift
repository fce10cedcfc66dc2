/// The loop at the heart of every run: one iteration after another, each under the executor.
///
/// This is the path the lab's own overhead is measured on (`make bench`): per iteration it
/// allocates an ``Iteration``, asks the executor to run the body, and hands the outcome to the
/// sink. A fresh ``Iteration`` each time keeps a stray task of an earlier iteration from
/// recording into a later one.
@MainActor
public func runIterations<Sink: OutcomeSink>(
  of variant: Variant,
  on executor: any IterationExecutor,
  indices: Range<Int>,
  into sink: inout Sink
) async {
  let body = variant.body
  for index in indices {
    let iteration = Iteration(index: index)
    var thrown: (any Error)?
    do {
      try await executor.run { try await body(iteration) }
    } catch {
      thrown = error
    }
    let observations = iteration.observations + (thrown.map { ["the test threw \($0)"] } ?? [])
    sink.record(
      observations.isEmpty ? .passed : .failed(observation: observations.joined(separator: "; ")),
      at: index)
  }
}
