package import FlakeLab
import Foundation

/// Every error a command can end with, as its one line and exit status: the one place the
/// library's error values become words.
package enum ErrorText {
  /// The line (without the program's name) and the exit status `error` ends a command with.
  package static func render(_ error: any Error) -> (line: String, status: ExitStatus) {
    switch error {
    case let error as UsageError: (error.message, .usage)
    case let error as ScenarioCatalog.LookupError: (describe(error), .usage)
    case let error as CatalogError: (describe(error), .usage)
    case let error as Shard.Invalid: (describe(error), .usage)
    case let error as ReportFileError: (describe(error), .usage)
    case let error as MergeError: (describe(error), .usage)
    case let error as PackageError: (describe(error), .usage)
    case let error as QuarantineError: (describe(error), .usage)
    case let error as any DescribedError: (error.line, .usage)
    case let error as NotAnOutcomeChannel:
      (
        "descriptor \(error.descriptor) is not an outcome channel: '\(Program.name) worker' is started by \(Program.name) itself",
        .usage
      )
    case let interrupted as LabInterrupted:
      ("interrupted while \(interrupted.stage.rawValue); nothing was measured", .interrupted)
    case let error as Supervisor.WorkerStartFailure: (describe(error), .internalError)
    case let error as SystemError:
      ("internal error: \(error.attempt) failed: \(String(cString: strerror(error.errno)))", .internalError)
    default: ("internal error: \(error)", .internalError)
    }
  }

  package static func describe(_ error: InputFileError) -> String {
    switch error.problem {
    case .missing: "cannot read \(error.path): no such file"
    case .cannotOpen(let code): "cannot read \(error.path): \(String(cString: strerror(code)))"
    case .directory: "cannot read \(error.path): it is a directory"
    case .notARegularFile:
      "cannot read \(error.path): it is not a regular file (a FIFO, a socket or a device); a pipe or a device is read only when named on the command line, a socket never"
    case .tooLarge(let limit): "cannot read \(error.path): it is larger than \(limit >> 20) MiB"
    }
  }

  /// `internal error: a worker for isLoading.naive did not start: no sign of life after 60 seconds. …`
  package static func describe(_ failure: Supervisor.WorkerStartFailure) -> String {
    let why =
      switch failure.reason {
      case .noSignOfLife(let limit): "no sign of life after \(limit)"
      case .ended(let status): Supervisor.describe(status: status)
      }
    return "internal error: a worker for \(failure.selector) did not start: \(why). " + failure.lastLines
  }

  package static func describe(_ error: QuarantineError) -> String {
    switch error {
    case .unreadable(let error): "the quarantine file: " + describe(error)
    case .malformed(let path):
      "\(path) is not a quarantine file: {\"tests\": [{\"test\", \"reason\", \"added\"}]} expected"
    case .notAQuarantine(let path):
      "\(path) is not a quarantine file (it does not say \"flakelab\": \"quarantine\"); write one with 'flakelab quarantine add'"
    case .unwritable(let error): "the quarantine file: " + describe(error) + "; it was left as it was"
    case .danglingLink(let path, let target):
      "\(path) is a symbolic link to \(target), which does not exist; it was left as it was"
    case .notListed(let id, .failures, let path): "'\(id)' is not in \(path)"
    case .notListed(let id, .races, let path): "'\(id)' has no entry of its races in \(path)"
    }
  }

  static func describe(_ error: ScenarioCatalog.LookupError) -> String {
    switch error {
    case .unknownScenario(let name, let known):
      "unknown scenario '\(name)'" + Suggestion.didYouMean(name, among: known)
    case .unknownVariant(let name, let scenario, let known):
      "unknown variant '\(name)' of '\(scenario)'" + Suggestion.didYouMean(name, among: known)
        + " (variants: \(known.joined(separator: ", ")))"
    case .unknownExecutor(let id, let known):
      "unknown executor '\(ValueParsers.shown(id.name))'"
        + Suggestion.didYouMean(id.name, among: known.map(\.name))
        + " (executors: \(known.map(\.name).joined(separator: ", ")))"
    case .severalVariants(let selector, let count, let example):
      "'\(selector)' names \(count) variants; name one as scenario.variant, e.g. '\(example)'"
    }
  }

  static func describe(_ error: CatalogError) -> String {
    switch error {
    case .executorGivenTwice(let id): "the executor '\(id)' is given twice"
    case .scenarioGivenTwice(let name): "the scenario '\(name)' is given twice"
    case .variantGivenTwice(let selector): "the variant '\(selector)' is given twice"
    case .claimUnderUnknownExecutor(let selector, let executor, let known):
      "\(selector) claims an outcome under '\(executor)', which is not an executor of the catalog"
        + Suggestion.didYouMean(executor.name, among: known.map(\.name))
        + " (executors: \(known.map(\.name).joined(separator: ", ")))"
    }
  }

  static func describe(_ error: Shard.Invalid) -> String {
    "a shard is INDEX/COUNT with 0 <= INDEX < COUNT <= \(Formatting.count(Shard.maximumCount)), not \(error.index)/\(error.count)"
  }

  package static func describe(_ error: ReportFileError) -> String {
    switch error {
    case .unreadable(let error): describe(error)
    case .emptyPath: "--output takes a file's path, and '' is none"
    case .isDirectory(let path): "cannot write \(path): it is a directory"
    case .notARegularFile(let path):
      "cannot write \(path): it is not a regular file (a device, a pipe or a socket), and a report only replaces a file"
    case .isStandardStream(let path):
      "cannot write \(path): it is where this command's own output goes, and the report would replace it "
        + "(for JSON there, use --format json)"
    case .directoryRefuses(let path, let directory, let code):
      "cannot write \(path): \(String(cString: strerror(code))) (\(directory))"
    case .writeFailed(let path, let code): "cannot write \(path): \(String(cString: strerror(code)))"
    case .malformed(let path, .notAReport): "\(path) is not a flakelab JSON report"
    case .malformed(let path, let malformation): "\(path): " + describe(malformation)
    }
  }

  private static func describe(_ malformation: ReportFileError.Malformation) -> String {
    switch malformation {
    case .notAReport: "not a flakelab JSON report"
    case .runWithoutNames: "a run lacks scenario, variant, executor or outcomes"
    case .outcome(let run): "an outcome of \(run) is malformed"
    case .replicate(let run): "a replicate of \(run) is malformed"
    case .countsDoNotAddUp(let run): "the counts of \(run) do not add up (iterations, outcomes, replicates)"
    case .testRunWithoutLayout(let test): "the test run \(test) lacks its framework or process layout"
    case .finding(let test):
      "the finding of test \(test) (tests[]) is incomplete or names an unknown verdict, diagnosis or polluter"
    case .schedule: "a run's schedule is malformed"
    case .sanitizer: "the thread sanitizer's summary is malformed"
    case .seconds(let field):
      "its \(field) is no time a run could have taken (0 to \(Int(JSONValue.mostSeconds)) seconds)"
    case .shard(let invalid): describe(invalid)
    }
  }

  static func describe(_ error: MergeError) -> String {
    switch error {
    case .noRuns(let report): "\(report) has no runs: there is nothing to merge or gate"
    case .otherPackage(let report, let path, let first, let firstPath):
      "\(report) measured the package at '\(path)', \(first) the one at '\(firstPath)': they are not one measurement"
    case .otherLayout(let report, let layout, let first, let firstLayout):
      "\(report) ran tests as \(layout.rawValue), \(first) as \(firstLayout.rawValue): their rates are not one measurement"
    case .notAShard(let report):
      "\(report) is not a shard's report: merge adds up the shards of one measurement"
    case .interruptedShard(let report, let shard):
      "\(report) (shard \(shard.index)/\(shard.count)) was interrupted: its counts are partial"
    case .differentShardCounts(let counts): "the reports are shards of different counts (\(counts))"
    case .shardTwice(let shard): "shard \(shard.index)/\(shard.count) appears twice"
    case .missingShards(let missing, let count):
      "shard\(missing.count == 1 ? "" : "s") \(missing.map(String.init).joined(separator: ", ")) of \(count) "
        + "\(missing.count == 1 ? "is" : "are") missing: a merge of some shards is not the measurement"
    case .differentSeeds:
      "the shards ran with different seeds (--seed): their schedules are not one measurement"
    case .otherRuns(let report, let first):
      "\(report) has other runs than \(first): they are not shards of one measurement"
    case .runTwice(let report, let run):
      "\(report) holds \(run) twice: added up, its counts would be doubled"
    case .unknownExecutor(let report, let run):
      "\(report) holds \(run), and this flakelab has no executor '\(run.executor)': it is not a report flakelab made"
    }
  }

  static func describe(_ error: PackageError) -> String {
    switch error {
    case .noDirectory(let path): "no directory at '\(path)' (--package-path)"
    case .noManifest(let path): "'\(path)' has no Package.swift; --package-path takes a SwiftPM package"
    case .unreadableManifest(let path, let status):
      "the manifest of the package at '\(path)' cannot be read (swift package dump-package exited \(status))"
    case .doesNotBuild(let path, let status, _):
      "the package at '\(path)' does not build (swift build --build-tests exited \(status))"
    case .noTestBinary(let name, let path, let binPath, let others, let skippedBuild):
      {
        let stale =
          others.isEmpty
          ? "" : " (\(others.joined(separator: ", ")) \(others.count == 1 ? "is" : "are") of another package name)"
        return skippedBuild
          ? "the package '\(name)' at '\(path)' has no built tests (\(name)PackageTests.xctest) in \(binPath)\(stale); build it or leave out --skip-build"
          : "the package '\(name)' at '\(path)' has no test target: no \(name)PackageTests.xctest in \(binPath)\(stale)"
      }()
    case .listingTimedOut(let binary, let framework, let limit):
      "'\(binary)' did not list its \(framework.rawValue) tests within \(limit) (--list-tests)"
    case .notATestBinary(let binary, let status):
      "'\(binary)' is not a SwiftPM test binary: --list-tests exited \(status)"
    case .probeTimedOut(let binary, let limit):
      "'\(binary)' did not finish a start-up probe within \(limit); is it SwiftPM's test binary?"
    case .noHarnessLibrary(let directory):
      "libFlakeLabPreload.so is neither in \(directory) nor in ../lib/flakelab: '\(Program.name) test' "
        + "needs the harness library (make build, or make install)"
    }
  }
}

extension UsageError {
  /// `body`'s result, or its error in ``ErrorText``'s words, for a command's options.
  package static func mapping<Value, Failure: Error>(
    _ body: () throws(Failure) -> Value
  ) throws(UsageError) -> Value {
    do {
      return try body()
    } catch {
      throw UsageError(ErrorText.render(error).line)
    }
  }
}
