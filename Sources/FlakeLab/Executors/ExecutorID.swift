/// An executor's identity: what `--executor` selects, what a variant's claims are keyed by, and
/// what a run carries from the plan to its report.
///
/// Each executor declares its own identity beside its type (``GlobalExecutor`` declares
/// ``global``), so its name is spelled once. A claim under an executor the catalog does not have
/// is an error when the catalog is built (``ScenarioCatalog/init(_:executors:)``), so a
/// misspelled name is never silently unjudged.
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
}
