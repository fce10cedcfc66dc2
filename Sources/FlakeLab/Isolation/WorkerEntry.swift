/// The worker side of a supervised run: run the batch, publish each outcome.
package enum WorkerEntry {
  /// Runs `variant` under `executor` for `indices`, publishing into the channel on descriptor 3.
  @MainActor
  package static func run(
    _ variant: Variant, on executor: any IterationExecutor, indices: Range<Int>
  ) async throws {
    SupervisorLifetime.bind()
    var channel = try OutcomeChannelWriter(descriptor: ProcessSpawner.channelDescriptor)
    channel.announceReady()
    await runIterations(of: variant, on: executor, indices: indices, into: &channel)
  }
}
