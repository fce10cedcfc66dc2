/// What a command asked the lab to do: which variants, under which executors, how many times.
///
/// A plan holds no results; the runner turns each ``Run`` into a ``RunResult``.
public struct RunPlan: Sendable {
  /// One (scenario, variant, executor) combination and how many iterations it gets.
  public struct Run: Sendable {
    public let scenario: Scenario
    public let variant: Variant
    public let executor: any IterationExecutor
    /// The global indices of this run's iterations: `0..<iterations`, or a shard's part of it.
    public let indices: Range<Int>
    /// The seed the deterministic scheduler derives each iteration's seed from.
    public let seed: UInt64

    public init(
      scenario: Scenario, variant: Variant, executor: any IterationExecutor, indices: Range<Int>,
      seed: UInt64 = 0
    ) {
      self.scenario = scenario
      self.variant = variant
      self.executor = executor
      self.indices = indices
      self.seed = seed
    }

    /// `scenario.variant`, the selector that names this run's variant.
    public var selector: String { "\(scenario.name).\(variant.name)" }
  }

  public let runs: [Run]

  public init(runs: [Run]) {
    self.runs = runs
  }

  /// Every resolved variant under every executor, variant-major, as `compare` lays them out;
  /// with a shard, each run gets that shard's block of its iterations.
  public init(
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
