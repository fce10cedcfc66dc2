/// An executor's name, typed: what `--executor` selects and what a variant's claims are keyed by.
///
/// A claim under an executor the catalog does not have is an error when the catalog is built
/// (``ScenarioCatalog/init(_:executors:)``), so a misspelled name is never silently unjudged.
///
/// ```swift
/// extension ExecutorID {
///   static let tracing = ExecutorID("tracing")
/// }
/// Variant(name: "fix", summary: "…", claims: [.serial: .neverFails, .tracing: .canPass]) { … }
/// ```
public struct ExecutorID: Hashable, Sendable, CustomStringConvertible {
  /// The name on the command line and in reports.
  public let name: String

  /// The executor called `name`.
  public init(_ name: String) {
    self.name = name
  }

  public var description: String { name }

  /// Swift's default executor (``GlobalExecutor``).
  public static let global = ExecutorID("global")
  /// Every global job on the main actor's queue (``SerialIterationExecutor``).
  public static let serial = ExecutorID("serial")
  /// The deterministic scheduler in a seeded order (``ScheduledExecutor``).
  public static let seeded = ExecutorID("seeded")
  /// The deterministic scheduler, first in first out (``ScheduledExecutor``).
  public static let fifo = ExecutorID("fifo")
}
