import FlakeLab

/// `flakelab list`: every scenario and variant with its one-line summary and source.
struct ListCommand: Command {
  static let name = "list"
  static let abstract = "List the scenarios and their variants."
  static let usage = "list [--all]"
  static let discussion = """
    A variant is run as 'scenario.variant'; a scenario name alone runs all its variants.
    Variants that wait on the wall clock say so: large iteration counts take real time.
    """
  /// The options, each declared once: parsing, help and defaults derive from these.
  enum Options {
    static let all = Flag("all", "Also list the diagnostic scenarios that exercise the lab itself.")
  }

  static let options = [Options.all.spec]

  let includeDiagnostics: Bool
  let catalog: ScenarioCatalog

  init(_ arguments: ParsedArguments, catalog: ScenarioCatalog) throws(UsageError) {
    self.catalog = catalog
    guard arguments.positionals.isEmpty else {
      throw UsageError("list takes no arguments, got '\(arguments.positionals[0])'")
    }
    includeDiagnostics = arguments[Options.all]
  }

  func run() async throws -> ExitStatus {
    // The deterministic scheduler's sleeps take no real time.
    let scheduled = catalog.executors.filter(\.needsDeterministicScheduler).map(\.name)
    let virtualTime = scheduled.isEmpty ? "" : "; virtual time under \(scheduled.joined(separator: " and "))"
    var lines: [String] = []
    for scenario in catalog.listed(includingDiagnostics: includeDiagnostics) {
      lines += ["\(scenario.name): \(scenario.summary)", "  source: \(scenario.source)"]
      let width = scenario.variants.map(\.name.count).max() ?? 0
      for variant in scenario.variants {
        let padding = String(repeating: " ", count: width - variant.name.count)
        let wait = variant.realTimeWait.map { " [sleeps \(Formatting.duration($0)) per iteration\(virtualTime)]" } ?? ""
        lines.append("  .\(variant.name)\(padding)  \(variant.summary)\(wait)")
      }
      lines.append("")
    }
    lines.append("executors:")
    let executors = catalog.executors
    let width = executors.map(\.name.count).max() ?? 0
    for executor in executors {
      let padding = String(repeating: " ", count: width - executor.name.count)
      lines.append("  \(executor.name)\(padding)  \(executor.summary)")
    }
    if executors.contains(where: \.needsDeterministicScheduler) {
      lines += [
        "",
        "The deterministic scheduler's executors interleave jobs only where tasks suspend: a data",
        "race inside synchronous code cannot show under them, as under serial.",
      ]
    }
    print(lines.joined(separator: "\n"))
    return .success
  }
}
