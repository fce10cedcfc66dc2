/// The worker side of a supervised run: find the variant, run the batch, publish each outcome.
public enum WorkerEntry {
  /// Runs `invocation` against `catalog`, publishing into the channel on descriptor 3.
  @MainActor
  public static func run(_ invocation: WorkerInvocation, catalog: ScenarioCatalog) async throws {
    let pairs = try catalog.resolve(invocation.selector)
    guard pairs.count == 1 else {
      throw UsageError("a worker runs one variant; '\(invocation.selector)' names \(pairs.count)")
    }
    let executor = try ExecutorCatalog.named(invocation.executor, seed: invocation.seed)
    var channel = try OutcomeChannelWriter(descriptor: ProcessSpawner.channelDescriptor)
    channel.announceReady()
    await runIterations(
      of: pairs[0].1, on: executor, indices: invocation.indices, into: &channel)
  }
}
