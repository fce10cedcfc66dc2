/// What a command asked the lab to do: which variants, under which executors, how many times.
///
/// A plan holds no results; the runner turns each ``Run`` into a ``RunResult``.
package struct RunPlan: Sendable {
  /// One (scenario, variant, executor) combination and how many iterations it gets.
  package struct Run: Sendable {
    package let scenario: Scenario
    package let variant: Variant
    package let executor: any IterationExecutor
    /// The global indices of this run's iterations: `0..<iterations`, or a shard's part of it.
    package let indices: Range<Int>
    /// The seed the deterministic scheduler derives each iteration's seed from.
    package let seed: UInt64

    package init(
      scenario: Scenario, variant: Variant, executor: any IterationExecutor, indices: Range<Int>,
      seed: UInt64 = 0
    ) {
      self.scenario = scenario
      self.variant = variant
      self.executor = executor
      self.indices = indices
      self.seed = seed
    }

    package var key: RunKey {
      RunKey(scenario: scenario.name, variant: variant.name, executor: executor.id)
    }
  }

  package let runs: [Run]

  package init(runs: [Run]) {
    self.runs = runs
  }

  /// Every resolved variant under every executor, variant-major, as `compare` lays them out;
  /// with a shard, each run gets that shard's block of its iterations.
  package init(
    variants: [(Scenario, Variant)], executors: [any IterationExecutor], iterations: Int,
    shard: Shard? = nil, seed: UInt64 = 0
  ) {
    let indices = shard?.indices(of: iterations) ?? 0..<iterations
    runs = variants.flatMap { scenario, variant in
      executors.map {
        Run(scenario: scenario, variant: variant, executor: $0, indices: indices, seed: seed)
      }
    }
  }
}
