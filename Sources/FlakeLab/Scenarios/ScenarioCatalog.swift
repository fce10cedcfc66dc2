/// The scenarios a lab knows, and the lookup of command-line selectors in them.
///
/// The engine knows scenarios only through a catalog handed to it; the `Scenarios` module builds
/// the standard one.
public struct ScenarioCatalog: Sendable {
  public let scenarios: [Scenario]

  public init(_ scenarios: [Scenario]) {
    self.scenarios = scenarios
  }

  /// The scenarios `list` shows: all of them with `includingDiagnostics`, else the teaching ones.
  public func listed(includingDiagnostics: Bool) -> [Scenario] {
    includingDiagnostics ? scenarios : scenarios.filter { !$0.isDiagnostic }
  }

  /// The variants a selector names: `scenario` for all its variants, `scenario.variant` for one.
  /// Diagnostic scenarios have dotted names (`lab.crash`), so a whole name is tried first.
  public func resolve(_ selector: String) throws(UsageError) -> [(Scenario, Variant)] {
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
      let names = scenario.variants.map(\.name)
      throw UsageError(
        "unknown variant '\(variantName)' of '\(scenario.name)'"
          + Suggestion.didYouMean(variantName, among: names)
          + " (variants: \(names.joined(separator: ", ")))")
    }
    return [(scenario, variant)]
  }

  /// The one variant `selector` names, for commands that run a single variant (`replay`,
  /// `explore`, a worker).
  public func variant(_ selector: String) throws(UsageError) -> (Scenario, Variant) {
    let pairs = try resolve(selector)
    guard pairs.count == 1 else {
      throw UsageError(
        "'\(selector)' names \(pairs.count) variants; name one as scenario.variant, e.g. "
          + "'\(pairs[0].0.name).\(pairs[0].1.name)'")
    }
    return pairs[0]
  }

  /// Every selector resolved in order, each (scenario, variant) pair once.
  public func resolve(_ selectors: [String]) throws(UsageError) -> [(Scenario, Variant)] {
    var seen = Set<String>()
    var pairs: [(Scenario, Variant)] = []
    for selector in selectors {
      for pair in try resolve(selector) where seen.insert("\(pair.0.name).\(pair.1.name)").inserted {
        pairs.append(pair)
      }
    }
    return pairs
  }

  private func unknownScenario(_ name: String) -> UsageError {
    UsageError(
      "unknown scenario '\(name)'" + Suggestion.didYouMean(name, among: scenarios.map(\.name)))
  }
}
