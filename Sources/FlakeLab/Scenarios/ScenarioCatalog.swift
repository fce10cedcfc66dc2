/// The scenarios and executors a lab knows, and the lookup of command-line names in them.
///
/// The engine knows scenarios and executors only through a catalog handed to it: `flakelab` is
/// `LabCommandLine.main(catalog:)` with the standard one, and a lab of one's own passes its own.
///
/// ```swift
/// let catalog = try ScenarioCatalog([counter], executors: ExecutorCatalog.standard + [Tracing()])
/// ```
public struct ScenarioCatalog: Sendable {
  public let scenarios: [Scenario]
  /// The executors runs can name, in the order `list` and help texts show them.
  public let executors: [any IterationExecutor]

  /// A catalog of `scenarios` and `executors`.
  ///
  /// - Parameters:
  ///   - scenarios: the scenarios, in the order `list` shows them.
  ///   - executors: the executors runs may name; FlakeLab's own by default.
  /// - Throws: ``CatalogError`` when a scenario, variant or executor name is given twice, or a
  ///   variant claims an outcome under an executor that is not among `executors`.
  public init(
    _ scenarios: [Scenario], executors: [any IterationExecutor] = ExecutorCatalog.standard
  ) throws(CatalogError) {
    try Self.check(scenarios, executors: executors)
    self.scenarios = scenarios
    self.executors = executors
  }

  private static func check(
    _ scenarios: [Scenario], executors: [any IterationExecutor]
  ) throws(CatalogError) {
    let ids = executors.map(\.id)
    if let twice = firstRepeated(ids) { throw .executorGivenTwice(twice) }
    if let twice = firstRepeated(scenarios.map(\.name)) { throw .scenarioGivenTwice(twice) }
    for scenario in scenarios {
      if let twice = firstRepeated(scenario.variants.map(\.name)) {
        throw .variantGivenTwice("\(scenario.name).\(twice)")
      }
      for variant in scenario.variants {
        for executor in variant.claims.keys.sorted(by: { $0.name < $1.name }) where !ids.contains(executor) {
          throw .claimUnderUnknownExecutor(
            selector: "\(scenario.name).\(variant.name)", executor: executor, known: ids)
        }
      }
    }
  }

  private static func firstRepeated<Name: Hashable>(_ names: [Name]) -> Name? {
    var seen = Set<Name>()
    return names.first { !seen.insert($0).inserted }
  }

  /// The executor `id` names, ready for a run with `seed`, or an error that lists the names.
  package func executor(_ id: ExecutorID, seed: UInt64 = 0) throws(LookupError)
    -> any IterationExecutor
  {
    guard let executor = executors.first(where: { $0.id == id }) else {
      throw .unknownExecutor(id, known: executors.map(\.id))
    }
    return executor.forRun(seed: seed)
  }

  /// The scenarios `list` shows: all of them with `includingDiagnostics`, else the teaching ones.
  package func listed(includingDiagnostics: Bool) -> [Scenario] {
    includingDiagnostics ? scenarios : scenarios.filter { !$0.isDiagnostic }
  }

  /// The variants a selector names: `scenario` for all its variants, `scenario.variant` for one.
  /// Diagnostic scenarios have dotted names (`lab.crash`), so a whole name is tried first.
  package func resolve(_ selector: String) throws(LookupError) -> [(Scenario, Variant)] {
    if let scenario = scenarios.first(where: { $0.name == selector }) {
      return scenario.variants.map { (scenario, $0) }
    }
    guard let dot = selector.lastIndex(of: ".") else { throw unknownScenario(selector) }
    let scenarioName = String(selector[..<dot])
    let variantName = String(selector[selector.index(after: dot)...])
    guard let scenario = scenarios.first(where: { $0.name == scenarioName }) else {
      throw unknownScenario(scenarioName)
    }
    guard let variant = scenario.variant(named: variantName) else {
      throw .unknownVariant(variantName, of: scenario.name, known: scenario.variants.map(\.name))
    }
    return [(scenario, variant)]
  }

  /// The one variant `selector` names, for commands that run a single variant (`replay`,
  /// `explore`, a worker).
  package func variant(_ selector: String) throws(LookupError) -> (Scenario, Variant) {
    let pairs = try resolve(selector)
    guard pairs.count == 1 else {
      throw .severalVariants(
        selector: selector, count: pairs.count, example: "\(pairs[0].0.name).\(pairs[0].1.name)")
    }
    return pairs[0]
  }

  /// Every selector resolved in order, each (scenario, variant) pair once.
  package func resolve(_ selectors: [String]) throws(LookupError) -> [(Scenario, Variant)] {
    var seen = Set<String>()
    var pairs: [(Scenario, Variant)] = []
    for selector in selectors {
      for pair in try resolve(selector) where seen.insert("\(pair.0.name).\(pair.1.name)").inserted {
        pairs.append(pair)
      }
    }
    return pairs
  }

  private func unknownScenario(_ name: String) -> LookupError {
    .unknownScenario(name, known: scenarios.map(\.name))
  }

  /// A selector or executor name the catalog does not have, with the names it does.
  package enum LookupError: Error, Equatable {
    case unknownScenario(String, known: [String])
    case unknownVariant(String, of: String, known: [String])
    case unknownExecutor(ExecutorID, known: [ExecutorID])
    /// A command that runs one variant got a selector of `count`, `example` among them.
    case severalVariants(selector: String, count: Int, example: String)
  }
}
