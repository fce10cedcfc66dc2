/// The worker side of a supervised run: find the variant, run the batch, publish each outcome.
package enum WorkerEntry {
  /// Runs `invocation` against `catalog`, publishing into the channel on descriptor 3.
  @MainActor
  package static func run(_ invocation: WorkerInvocation, catalog: ScenarioCatalog) async throws {
    SupervisorLifetime.bind()
    let (_, variant) = try catalog.variant(invocation.selector)
    let executor = try catalog.executor(named: invocation.executor, seed: invocation.seed)
    var channel = try OutcomeChannelWriter(descriptor: ProcessSpawner.channelDescriptor)
    channel.announceReady()
    await runIterations(
      of: variant, on: executor, indices: invocation.indices, into: &channel)
  }
}
