/// The executors FlakeLab comes with, and what a catalog offers when it is given none.
public enum ExecutorCatalog {
  /// Every executor of the lab, in the order help texts show them.
  public static let standard: [any IterationExecutor] = [
    GlobalExecutor(), SerialIterationExecutor(), ScheduledExecutor(order: .seeded),
    ScheduledExecutor(order: .fifo),
  ]

  /// What `compare` and `test` run when no `--executors` is given.
  package static let comparedByDefault: [ExecutorID] = [.global, .serial]
}
