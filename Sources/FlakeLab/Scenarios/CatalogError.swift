/// Why a ``ScenarioCatalog`` cannot be built: a name given twice, or a claim under an executor
/// the catalog does not have. The command line words it.
public enum CatalogError: Error, Equatable, Sendable {
  case executorGivenTwice(ExecutorID)
  case scenarioGivenTwice(String)
  /// A variant name given twice in one scenario, as `scenario.variant`.
  case variantGivenTwice(String)
  /// `selector` claims an outcome under `executor`, which is not among `known`.
  case claimUnderUnknownExecutor(selector: String, executor: ExecutorID, known: [ExecutorID])
}
