import FlakeLab

/// `flakelab explore`: every distinct schedule of a small scenario, depth-first.
struct ExploreCommand: Command {
  static let name = "explore"
  static let abstract = "Run every distinct schedule of one iteration and count the outcomes."
  static let usage = "explore <scenario.variant> [--max-schedules N] [--index I]"
  static let discussion = """
    Walks the schedules of the deterministic scheduler depth-first: at each point where two or
    more jobs are ready, each choice in turn. Prints how many schedules there are (or how many
    were explored within the bound), the outcomes, and a replay handle for the first failing
    schedule. A crash in a scenario ends the exploration and is reported as its outcome.
    """
  /// The options, each declared once: parsing, help and defaults derive from these.
  enum Options {
    static let maxSchedules = Option(
      "max-schedules", "N", "Stop after N schedules", default: 10_000, parse: ValueParsers.positiveCount)
    static let index = Option(
      "index", "I", "The iteration index the scenario sees", default: 0, parse: ValueParsers.index)
  }

  static let options = [Options.maxSchedules.spec, Options.index.spec]

  let selector: String
  let variant: Variant
  let maxSchedules: Int
  let index: Int

  init(_ arguments: ParsedArguments, catalog: ScenarioCatalog) throws(UsageError) {
    (selector, variant) = try arguments.singleVariant(for: Self.name, in: catalog)
    maxSchedules = try arguments[Options.maxSchedules]
    index = try arguments[Options.index]
  }

  /// The contained child runs the scheduler; the parent only starts it.
  var needsDeterministicScheduler: Bool { CrashContainment.isContained }

  func run() async throws -> ExitStatus {
    if let status = try CrashContainment.runUnlessContained(report: { crash in
      "\(selector): a schedule crashed the process, which ended the exploration: \(crash)\n"
        + "'\(Program.name) run \(selector) --executor seeded' counts crashes as outcomes"
    }) {
      return status
    }
    let result = await ScheduleExplorer.explore(variant, index: index, maxSchedules: maxSchedules)
    var lines = [
      result.isComplete
        ? "\(selector): \(Formatting.count(result.schedules)) distinct "
          + (result.schedules == 1 ? "schedule, the only one." : "schedules, all explored.")
        : "\(selector): explored the first \(Formatting.count(result.schedules)) schedules (--max-schedules); there are more.",
      "",
    ]
    lines += ReportText.histogramLines(result.tally).map { String($0.dropFirst(2)) }
    if result.tally.histogram.count == 1 {
      lines.append(
        "  every schedule: \(result.tally.histogram.first.map { OutcomeText.describe($0.outcome) } ?? "")")
    }
    lines.append("")
    if let failure = result.firstFailure {
      lines.append("first failing schedule: \(Program.name) replay \(selector) --schedule \(failure.path) --trace")
    } else {
      lines.append("no schedule failed")
    }
    if let pass = result.firstPass {
      lines.append("first passing schedule: \(Program.name) replay \(selector) --schedule \(pass)")
    }
    print(lines.joined(separator: "\n"))
    return .success
  }
}
