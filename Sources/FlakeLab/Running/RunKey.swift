/// What a run is of: a scenario's variant under an executor, or a package test (its suite where
/// a scenario stands, its function where a variant does).
///
/// The plan makes it, and the supervisor, the results, merging, baselines and problems carry and
/// match it as it is; it becomes text only where a report is written or read.
package struct RunKey: Hashable, Sendable, CustomStringConvertible {
  /// The scenario, or a package test's suite (``PackageTest/suite``).
  package let scenario: String
  /// The variant, or a package test's function (``PackageTest/function``).
  package let variant: String
  package let executor: ExecutorID

  package init(scenario: String, variant: String, executor: ExecutorID) {
    self.scenario = scenario
    self.variant = variant
    self.executor = executor
  }

  /// A package test under `executor`: the key its runs have in every report, as a scenario's.
  package init(test: PackageTest, executor: ExecutorID) {
    self.init(scenario: test.suite, variant: test.function, executor: executor)
  }

  /// `scenario.variant`, the selector that names the run's variant.
  package var selector: String { "\(scenario).\(variant)" }

  /// `scenario.variant under executor`, as problems and notes name a run.
  package var description: String { "\(selector) under \(executor)" }
}
