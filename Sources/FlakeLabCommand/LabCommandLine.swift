public import FlakeLab
import Foundation

/// Every command of `flakelab` (`list`, `run`, `compare`, `test`, `ci`, `check`, `plan`,
/// `replay`, `explore`, `merge`), over the scenarios and executors of a catalog: `flakelab` is
/// this with the standard catalog and the history's commands (`history`, `quarantine`, `ci
/// --record`, which link SQLite: ``LabExtensions``), and a lab of one's own is this with its own
/// catalog.
///
/// Runs are supervised: workers are this same executable started again with a hidden `worker`
/// command, which ``main(catalog:)`` recognizes first, so a lab's own executable needs nothing
/// else. Printed commands, such as the replay of a failing iteration, name that executable.
///
/// ```swift
/// // Sources/my-lab/main.swift
/// import FlakeLab
/// import FlakeLabCommand
///
/// LabCommandLine.main(catalog: try! ScenarioCatalog([counter]))
/// ```
public enum LabCommandLine {
  /// Runs the command this process's arguments name against `catalog`, and exits.
  ///
  /// Picks the subcommand, parses its arguments, runs it, and turns every way it can end into
  /// one exit status: 0 done, 1 a gate, claim or baseline not met, 2 bad input (one line on
  /// stderr, never a trap), 3 an internal error, 130 interrupted.
  ///
  /// - Parameter catalog: the scenarios and executors every command sees.
  /// - Returns: never; the process exits with the command's status.
  public static func main(catalog: ScenarioCatalog) -> Never {
    main(catalog: catalog, extensions: LabExtensions())
  }

  /// ``main(catalog:)`` with what `extensions` adds: `flakelab`'s history and worker.
  package static func main(catalog: ScenarioCatalog, extensions: LabExtensions) -> Never {
    LabExtensions.$current.withValue(extensions) {
      Program.$name.withValue(Program.startedAs) { run(catalog) }
    }
  }

  private static func run(_ catalog: ScenarioCatalog) -> Never {
    // The supervisor waits for its workers: an ignored SIGCHLD inherited from a parent would
    // make the kernel reap them unseen.
    signal(SIGCHLD, SIG_DFL)
    // A reader that goes away early (`| head`) is a standard output that cannot be written:
    // exit 2 with that said, never a silent death by SIGPIPE (141). Processes the lab starts
    // get the default back (`ProcessSpawner`).
    signal(SIGPIPE, SIG_IGN)
    // A closed standard descriptor would be the number the next file gets, and a worker's
    // channel would end up as its standard input. Fill each with /dev/null opened read-only:
    // output to a closed stdout still fails, and says so.
    for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 {
      _ = open("/dev/null", O_RDONLY)
    }
    let arguments = Array(CommandLine.arguments.dropFirst())
    let command: any Command
    do {
      switch try parse(arguments, commands: commands(catalog)) {
      case .run(let parsed):
        command = parsed
      case .show(let text):
        // Help, the version or a completion script that could not be written is no success:
        // `make install` would install an empty completion.
        guard SystemCalls.writeAll(text.utf8, to: STDOUT_FILENO) else {
          fail("could not write to standard output: \(String(cString: strerror(errno)))", status: .usage)
        }
        exit(ExitStatus.success.rawValue)
      }
    } catch {
      fail(error.message, status: .usage)
    }
    // Ctrl-C and SIGTERM end every command with 130, whatever it waits on; a worker is stopped
    // by its supervisor instead.
    if !(command is WorkerCommand) { InterruptSignal.install() }
    // The deterministic scheduler must be in place before the first task exists.
    if command.needsDeterministicScheduler { DeterministicScheduler.install() }
    // Scenarios and the serial executor need the main queue drained: run on the main actor and
    // hand the main thread to Dispatch, as an async `main` would (or to the scheduler). The task
    // gets the priority an async `main` gives its task on Linux, which is also the priority Swift
    // Testing runs tests at. Left to inherit the main thread's, it would run at `.high`, as
    // XCTest runs async tests, and a race such as isLoading.endpointYield fails about three times
    // as often under the global executor (GlobalRates.md, "A faithful worker").
    if command.startsAsAnAsyncMain {
      // An async `main` runs its task's first part on the main thread before it hands the thread
      // over; a task that waits for the main queue instead moved isLoading's global rate, in the
      // same loop, from the async `main`'s to what the lab measured (GlobalRates.md).
      Task.immediate(priority: .medium) { @MainActor in await runToItsEnd(command) }
    } else {
      Task(priority: .medium) { @MainActor in await runToItsEnd(command) }
    }
    if DeterministicScheduler.isInstalled { DeterministicScheduler.runMainLoop() }
    dispatchMain()
  }

  /// Runs `command` and exits with what it came to.
  @MainActor
  private static func runToItsEnd(_ command: any Command) async -> Never {
    do {
      let status = try await command.run()
      // An interrupt a watcher saw after its last look still ends the command as one.
      if InterruptSignal.isRaised { exit(ExitStatus.interrupted.rawValue) }
      exitUnlessStandardOutputFailed(status)
    } catch {
      let (line, status) = ErrorText.render(error)
      fail(line, status: status)
    }
  }

  /// Exits with `status`, or with 2 and the reason when what is still buffered for standard
  /// output cannot be written (`> /dev/full`, a closed pipe).
  private static func exitUnlessStandardOutputFailed(_ status: ExitStatus) -> Never {
    if fflush(nil) != 0 {
      fail("could not write to standard output: \(String(cString: strerror(errno)))", status: .usage)
    }
    exit(status.rawValue)
  }

  /// The commands of a lab with `catalog`, in the order help lists them.
  static func commands(_ catalog: ScenarioCatalog) -> [CommandEntry] {
    [
      ListCommand.entry(catalog), RunCommand.entry(catalog), CompareCommand.entry(catalog),
      TestCommand.entry(catalog), CICommand.entry(catalog), CheckCommand.entry(catalog), PlanCommand.entry(catalog),
      ReplayCommand.entry(catalog), ExploreCommand.entry(catalog), MergeCommand.entry(catalog),
    ] + LabExtensions.current.commands(catalog) + [WorkerCommand.entry(catalog)]
  }

  /// What a command line asks for: a command to run, or text to show (help, the version, a
  /// completion script).
  enum Request {
    case run(any Command)
    case show(String)
  }

  static func parse(_ arguments: [String], commands: [CommandEntry]) throws(UsageError) -> Request {
    guard let name = arguments.first, !["-h", "--help", "help"].contains(name) else {
      if arguments.count > 1 {
        guard let topic = commands.first(where: { $0.name == arguments[1] }), arguments.count == 2 else {
          throw UsageError(
            "no help on '\(ValueParsers.shown(arguments.dropFirst().joined(separator: " ")))'"
              + Suggestion.didYouMean(arguments[1], among: commands.filter { !$0.isHidden }.map(\.name))
              + " (see '\(Program.name) --help')")
        }
        return .show(topic.helpText)
      }
      return .show(overview(commands))
    }
    if name == CompletionScript.flag {
      let shells = CompletionScript.Shell.allCases.map(\.rawValue)
      guard arguments.count == 2, let shell = CompletionScript.Shell(rawValue: arguments[1]) else {
        throw UsageError(
          "\(CompletionScript.flag) takes one shell, \(shells.joined(separator: ", ")), not '"
            + ValueParsers.shown(arguments.dropFirst().joined(separator: " ")) + "'")
      }
      return .show(CompletionScript.script(for: shell, program: Program.name, commands: commands))
    }
    if name == "--version" {
      guard arguments.count == 1 else {
        throw UsageError("--version takes nothing after it, not '\(ValueParsers.shown(arguments[1]))'")
      }
      return .show(Report.labVersion + "\n")
    }
    guard var type = commands.first(where: { $0.name == name }) else {
      throw UsageError(
        "unknown command '\(ValueParsers.shown(name))'"
          + Suggestion.didYouMean(name, among: commands.filter { !$0.isHidden }.map(\.name))
          + " (see '\(Program.name) --help')")
    }
    var rest = Array(arguments.dropFirst())
    while let word = rest.first, let subcommand = type.subcommands.first(where: { $0.name == word }) {
      type = subcommand
      rest.removeFirst()
    }
    if rest.contains("--help") || rest.contains("-h") { return .show(type.helpText) }
    let parsed = try ParsedArguments(rest, options: type.options, command: type.name)
    return .run(try type.make(parsed))
  }

  static func overview(_ commands: [CommandEntry]) -> String {
    let visible = commands.filter { !$0.isHidden }
    let width = visible.map(\.name.count).max() ?? 0
    return """
      OVERVIEW: A test-flakiness lab for Swift concurrency: runs classic async tests thousands of
      times under different executors and reports how often, and how, they fail.

      USAGE: \(Program.name) <command> [options]

      COMMANDS:
      \(visible.map { "  \($0.name.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.abstract)" }.joined(separator: "\n"))

      See '\(Program.name) <command> --help' for a command's options, '\(Program.name) --version' for the version,
      '\(Program.name) \(CompletionScript.flag) bash|zsh|fish' for shell completions.

      """
  }

  /// Ends with `message` as one line on stderr, however the message came to be: a value the
  /// user typed with a newline in it, or a very long one, still gives one readable line.
  static func fail(_ message: String, status: ExitStatus) -> Never {
    let line = message.replacingOccurrences(of: "\n", with: " ")
    printError("\(Program.name): " + (line.count > 500 ? line.prefix(500) + "…" : line))
    exit(status.rawValue)
  }
}
