import Foundation

extension CIRun {
  /// The command that runs one of `test`'s failures again with the random values and hash order
  /// it had: its first failed retry alone, as `flakelab test` runs one (`--layout fresh
  /// --executor global`, the run's seed and the retry's index), else the pass (where a failure in
  /// the suite again also fails), as this `ci` run with `--seed`. Nil for a
  /// test that never failed. The seed decides what the process draws, not when its threads run:
  /// under the global executor a replay repeats a failure the seed decided, not an interleaving.
  package func replay(of test: CITest) -> String? {
    guard
      let failure = test.attempts.first(where: { $0.failed && $0.placement == .alone })
        ?? test.attempts.first(where: \.failed)
    else { return nil }
    let package = ScheduleText.shellQuoted(packagePath)
    guard failure.placement == .alone else {
      return
        ([context.program, "ci", "--package-path", package] + context.selection.map(ScheduleText.shellQuoted)
        + ["--retries", "0", "--seed", String(seed)]).joined(separator: " ")
    }
    let filter = "^" + NSRegularExpression.escapedPattern(for: test.test.id) + "$"
    return [
      context.program, "test", "--package-path", package, "--layout", "fresh",
      "--filter", ScheduleText.shellQuoted(filter),
      "--executor", ExecutorID.global.name, "--seed", String(seed), "--index", String(failure.index),
    ].joined(separator: " ")
  }
}
