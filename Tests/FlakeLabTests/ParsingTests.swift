import FlakeLab
import Scenarios
import XCTest

@testable import FlakeLabCommand

final class ParsingTests: XCTestCase {
  private let iterations = RunOptions.Options.iterations
  private let all = ListCommand.Options.all
  private var options: [OptionSpec] { [iterations.spec, all.spec] }

  /// A worker under the runtime's own executor starts as an async `main` starts its task; one on
  /// the lab's executors waits for the main queue, which the deterministic scheduler drains.
  func testOnlyAWorkerUnderTheRuntimesExecutorStartsAsAnAsyncMain() throws {
    let commands = LabCommandLine.commands(.standard)
    func worker(_ executor: String) throws -> any Command {
      guard
        case .run(let command) = try LabCommandLine.parse(
          ["worker", "isLoading.endpointYield", executor, "7", "0", "10"], commands: commands)
      else { throw UsageError("no command") }
      return command
    }
    let starts = try ["global", "serial", "fifo", "seeded"].map { try worker($0).startsAsAnAsyncMain }
    XCTAssertEqual(starts, [true, false, false, false])
    XCTAssertTrue(try worker("seeded").needsDeterministicScheduler)
    guard case .run(let run) = try LabCommandLine.parse(["run", "isLoading"], commands: commands) else {
      return XCTFail("no run command")
    }
    XCTAssertFalse(run.startsAsAnAsyncMain, "a supervisor runs no iteration")
  }

  func testSplitsPositionalsValuesAndFlags() throws {
    let parsed = try ParsedArguments(
      ["a", "--iterations", "5", "b", "--all", "--", "--c"], options: options, command: "run")
    XCTAssertEqual(parsed.positionals, ["a", "b", "--c"])
    XCTAssertEqual(try parsed[iterations], 5)
    XCTAssertTrue(parsed[all])
  }

  func testAcceptsEqualsFormAndDefaultsDeriveFromTheDeclaration() throws {
    let parsed = try ParsedArguments(["--iterations=7"], options: options, command: "run")
    XCTAssertEqual(try parsed[iterations], 7)
    let none = try ParsedArguments([], options: options, command: "run")
    XCTAssertEqual(try none[iterations], 1000)
    XCTAssertFalse(none[all])
    XCTAssertEqual(iterations.spec.help, "Iterations per variant and executor (default: 1000).")
  }

  func testRejectsUnknownOptionWithSuggestion() {
    XCTAssertThrowsError(try ParsedArguments(["--iteratons", "5"], options: options, command: "run")) {
      XCTAssertEqual(
        ($0 as? UsageError)?.message,
        "unknown option '--iteratons' for 'run'; did you mean '--iterations'? (see 'flakelab run --help')")
    }
  }

  func testRejectsMissingValueAndValueOnFlag() {
    XCTAssertThrowsError(try ParsedArguments(["--iterations"], options: options, command: "run")) {
      XCTAssertEqual(($0 as? UsageError)?.message, "--iterations needs a value (--iterations N)")
    }
    XCTAssertThrowsError(try ParsedArguments(["--all=yes"], options: options, command: "run")) {
      XCTAssertEqual(($0 as? UsageError)?.message, "--all takes no value")
    }
  }

  func testCounts() throws {
    XCTAssertEqual(try ValueParsers.positiveCount("10000", option: "--n"), 10000)
    XCTAssertEqual(try ValueParsers.positiveCount("10_000", option: "--n"), 10000)
    XCTAssertEqual(try ValueParsers.positiveCount("10,000", option: "--n"), 10000)
    for bad in ["0", "-3", "ten", "", "1.5", "99999999999999999999"] {
      XCTAssertThrowsError(try ValueParsers.positiveCount(bad, option: "--n"), bad)
    }
  }

  func testRates() throws {
    XCTAssertEqual(try ValueParsers.rate("0.01", option: "--r"), 0.01)
    XCTAssertEqual(try ValueParsers.rate("1%", option: "--r"), 0.01, accuracy: 1e-12)
    XCTAssertEqual(try ValueParsers.rate("0", option: "--r"), 0)
    for bad in ["1.5", "-0.1", "150%", "abc", "nan", "%"] {
      XCTAssertThrowsError(try ValueParsers.rate(bad, option: "--r"), bad)
    }
  }

  func testSelectors() throws {
    let catalog = try ScenarioCatalog([
      Scenario(
        name: "isLoading", summary: "", source: "",
        variants: [
          Variant(name: "naive", summary: "") { _ in }, Variant(name: "yield", summary: "") { _ in },
        ]),
      Scenario(
        name: "lab.crash", summary: "", source: "", isDiagnostic: true,
        variants: [Variant(name: "every100th", summary: "") { _ in }]),
    ])
    XCTAssertEqual(try catalog.resolve("isLoading").map(\.1.name), ["naive", "yield"])
    XCTAssertEqual(try catalog.resolve("isLoading.yield").map(\.1.name), ["yield"])
    XCTAssertEqual(try catalog.resolve("lab.crash").map(\.0.name), ["lab.crash"])
    XCTAssertEqual(try catalog.resolve("lab.crash.every100th").map(\.1.name), ["every100th"])
    XCTAssertEqual(
      try catalog.resolve(["isLoading.naive", "isLoading"]).map(\.1.name), ["naive", "yield"])
    XCTAssertThrowsError(try catalog.resolve("isLoadnig")) {
      XCTAssertEqual(
        ErrorText.render($0).line, "unknown scenario 'isLoadnig'; did you mean 'isLoading'?")
    }
    XCTAssertThrowsError(try catalog.resolve("nothingLikeIt")) {
      XCTAssertEqual(ErrorText.render($0).line, "unknown scenario 'nothingLikeIt'")
    }
    XCTAssertEqual(catalog.listed(includingDiagnostics: false).map(\.name), ["isLoading"])
  }

  func testACatalogRefusesAClaimUnderAnExecutorItDoesNotHave() {
    let misspelled = Variant(
      name: "fix", summary: "", claims: [.serial: .neverFails, ExecutorID("serail"): .neverFails]
    ) { _ in }
    XCTAssertThrowsError(
      try ScenarioCatalog([Scenario(name: "counter", summary: "", source: "", variants: [misspelled])])
    ) {
      XCTAssertEqual(
        ErrorText.render($0).line,
        "counter.fix claims an outcome under 'serail', which is not an executor of the catalog; "
          + "did you mean 'serial'? (executors: global, serial, seeded, fifo)")
    }
    // An executor of the lab's own makes the same claim valid; names given twice are refused.
    struct Tracing: IterationExecutor {
      var id: ExecutorID { ExecutorID("tracing") }
      var summary: String { "" }
      @MainActor
      func run(_ iteration: Iteration, _ body: @escaping Variant.Body) async -> IterationSchedule? {
        await iteration.perform(body)
        return nil
      }
    }
    let traced = Variant(name: "fix", summary: "", claims: [ExecutorID("tracing"): .canPass]) { _ in }
    let scenario = Scenario(name: "counter", summary: "", source: "", variants: [traced])
    XCTAssertNoThrow(try ScenarioCatalog([scenario], executors: ExecutorCatalog.standard + [Tracing()]))
    XCTAssertThrowsError(try ScenarioCatalog([scenario, scenario], executors: [Tracing()])) {
      XCTAssertEqual($0 as? CatalogError, .scenarioGivenTwice("counter"))
    }
    XCTAssertThrowsError(try ScenarioCatalog([scenario], executors: [Tracing(), Tracing()])) {
      XCTAssertEqual($0 as? CatalogError, .executorGivenTwice(ExecutorID("tracing")))
    }
    // The lab's own catalog is built at first use: it must build.
    XCTAssertEqual(ScenarioCatalog.standard.executors.map(\.name), ["global", "serial", "seeded", "fifo"])
  }
}
