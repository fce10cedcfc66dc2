import FlakeLab

/// `flakelab replay`: reruns one iteration exactly, by its seed or its schedule path, and can
/// print the schedule step by step.
struct ReplayCommand: Command {
  static let name = "replay"
  static let abstract = "Rerun one iteration under the deterministic scheduler, by seed or path."
  static let usage =
    "replay <scenario.variant> (--seed S | --schedule PATH) [--index I] [--executor \(ExecutorID.seeded)|\(ExecutorID.fifo)] [--trace]"
  static let discussion = """
    A run under the seeded executor lists its failing iterations with their seeds; this reruns
    one of them alone and gets the same schedule and outcome. --schedule takes a path printed by
    '\(Program.name) explore'. --trace prints every step: which task ran, whether its job was a main-actor
    or a global job, and which sleeper virtual time woke.
    """
  /// The options, each declared once: parsing, help and defaults derive from these.
  enum Options {
    static let seed = Option<UInt64>.optional(
      "seed", "S", "The iteration's seed, as a report lists it", parse: ValueParsers.seed)
    static let schedule = Option<String>.text(
      "schedule", "PATH", "A schedule path from '\(Program.name) explore' (e.g. 1.0.2), instead of a seed")
    static let index = Option(
      "index", "I", "The iteration's index, as a report lists it", default: 0, parse: ValueParsers.index)
    static let executor = Option(
      "executor", "NAME", "\(ExecutorID.seeded) or \(ExecutorID.fifo); \(ExecutorID.fifo) ignores the seed",
      default: ExecutorID.seeded
    ) { text, _ in ExecutorID(text) }
    static let trace = Flag("trace", "Print the schedule step by step.")
  }

  static let options: [OptionSpec] = [
    Options.seed.spec, Options.schedule.spec, Options.index.spec, Options.executor.spec, Options.trace.spec,
  ]

  let selector: String
  let variant: Variant
  let policy: SchedulePolicy
  let index: Int
  let tracing: Bool

  init(_ arguments: ParsedArguments, catalog: ScenarioCatalog) throws(UsageError) {
    (selector, variant) = try arguments.singleVariant(for: Self.name, in: catalog)
    index = try arguments[Options.index]
    tracing = arguments[Options.trace]
    let id = try arguments[Options.executor]
    let executor = try UsageError.mapping { () throws(ScenarioCatalog.LookupError) in
      try catalog.executor(id)
    }
    guard let order = (executor as? ScheduledExecutor)?.order else {
      throw UsageError(
        "replay runs under the deterministic scheduler (\(ExecutorID.seeded) or \(ExecutorID.fifo)), not \(executor.id)"
      )
    }
    // fifo needs no seed, but one given must still be one.
    switch (order, try arguments[Options.seed], try arguments[Options.schedule]) {
    case (.fifo, _, nil):
      policy = .fifo
    case (.fifo, _, _?):
      throw UsageError("replay --executor fifo takes no --schedule: fifo has one schedule")
    case (.seeded, let seed?, nil):
      policy = .seeded(seed)
    case (.seeded, nil, let path?):
      guard let picks = ScheduleChoices.picks(fromPath: path) else {
        throw UsageError("--schedule takes a path of choices such as 1.0.2, not '\(path)'")
      }
      policy = .directed(picks)
    case (.seeded, nil, nil):
      throw UsageError("replay needs --seed S or --schedule PATH")
    case (.seeded, _?, _?):
      throw UsageError("replay takes --seed S or --schedule PATH, not both")
    }
  }

  /// The contained child runs the scheduler; the parent only starts it.
  var needsDeterministicScheduler: Bool { CrashContainment.isContained }

  private var how: String {
    switch policy {
    case .seeded(let seed): "seed \(seed)"
    case .directed: "schedule path"
    case .fifo: "\(ExecutorID.fifo)"
    }
  }

  func run() async throws -> ExitStatus {
    if let status = try CrashContainment.runUnlessContained(report: { crash in
      "\(selector) · iteration \(index) · \(how)\noutcome: \(crash)"
    }) {
      return status
    }
    let (outcome, schedule) = await runIteration(
      of: variant, index: index, on: FixedScheduleExecutor(policy: policy, tracing: tracing))
    // A directed path must be the schedule that ran, pick for pick: a pick past the jobs that
    // were ready, or more picks than choices, would silently replay another schedule.
    if case .directed(let path) = policy, let picks = schedule?.choices.picks, picks != path {
      throw UsageError(
        "the schedule path \(ValueParsers.shown(ScheduleChoices.path(of: path))) does not fit "
          + "\(selector) iteration \(index): it ran \(schedule.map { $0.choices.path } ?? "-") "
          + "(see '\(Program.name) explore \(selector)')")
    }
    var lines = ["\(selector) · iteration \(index) · \(how)"]
    lines.append("outcome: \(OutcomeText.describe(outcome))")
    if let schedule {
      lines.append(
        "schedule: \(schedule.steps) steps, \(schedule.choices.picks.count) choices, fingerprint "
          + "\(ScheduleText.hex(schedule.fingerprint)), path \(schedule.choices.path), virtual time "
          + ScheduleText.virtualTime(schedule.virtualTime))
      lines += schedule.trace.map(\.description)
    }
    print(lines.joined(separator: "\n"))
    return .success
  }
}
