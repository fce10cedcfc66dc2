import Foundation

/// The fixture packages of `Tests/Fixtures`, each a package of its own, and their builds: each
/// is built once per test run, by its listing (`flakelab test --list`, as a user's first call
/// would build it), which every suite that runs it shares.
enum Fixtures {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

  /// A package of the user's kind: isLoading and its neighbours, in both frameworks.
  static let numberFacts = path("NumberFacts")
  /// One test of each kind the diagnosis tells apart, labelled (`Labels.tsv`).
  static let flakeKinds = path("FlakeKinds")
  /// A daily job's package: a flaky test, a broken one, a crash and a hang on request.
  static let ciJob = path("CIJob")
  /// XCTest alone, no Swift Testing.
  static let xctestOnly = path("XCTestOnly")
  /// What real packages do that ours do not: slow tests, children, a wait on another thread.
  static let awkward = path("Awkward")
  /// What `swift test` fails every time and a daily job must fail too, in shapes a reading of
  /// sources or a cut channel got wrong.
  static let strictJob = path("StrictJob")
  /// Data races and their look-alikes, for the thread sanitizer's arm.
  static let races = path("Races")
  /// Hundreds of tests writing events at once.
  static let eventStorm = path("EventStorm")

  static let numberFactsBuild = build(numberFacts)
  static let flakeKindsBuild = build(flakeKinds)
  static let ciJobBuild = build(ciJob)
  static let xctestOnlyBuild = build(xctestOnly)
  static let awkwardBuild = build(awkward)
  static let strictJobBuild = build(strictJob)

  private static func path(_ name: String) -> String {
    directory.appendingPathComponent(name).path
  }

  private static func build(_ package: String) -> Result<Flakelab.Result, any Error> {
    Result { try Flakelab.run(["test", "--package-path", package, "--list"]) }
  }
}
