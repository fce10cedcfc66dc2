/// The loop at the heart of every run: one iteration after another, each under the executor.
///
/// This is the path the lab's own overhead is measured on (`make bench`): per iteration it
/// builds an ``Iteration``, asks the executor to run the body, and hands the outcome to the sink.
/// Nothing here allocates on a passing iteration beyond the body's own closure context.
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
    do {
      try await executor.run { try await body(iteration) }
      sink.record(.passed, at: index)
    } catch let failure as ExpectationFailure {
      sink.record(.failed(observation: failure.observation), at: index)
    } catch {
      sink.record(.failed(observation: "the test threw \(error)"), at: index)
    }
  }
}
