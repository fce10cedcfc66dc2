/// A test of the user's package, as its test binary lists it.
///
/// The ID is the one the framework prints: `NumberFactsTests.IsLoadingTests/yield()` for Swift
/// Testing, `NumberFactsTests.IsLoadingXCTests/testYield` for XCTest. In reports the suite (all
/// before the last `/`) stands where a scenario does and the test function where a variant does,
/// so every reader of reports, `merge` and `--baseline` treat tests and scenarios alike.
package struct PackageTest: Hashable, Sendable {
  package enum Framework: String, Sendable, CaseIterable {
    case xctest
    case swiftTesting = "swift-testing"
  }

  package let id: String
  package let framework: Framework

  package init(id: String, framework: Framework) {
    self.id = id
    self.framework = framework
  }

  /// `NumberFactsTests.IsLoadingTests`.
  package var suite: String {
    id.lastIndex(of: "/").map { String(id[..<$0]) } ?? id
  }

  /// `yield()`.
  package var function: String {
    id.lastIndex(of: "/").map { String(id[id.index(after: $0)...]) } ?? id
  }
}

/// What a report says of a run that measured a package's test: which test, where, and how its
/// iterations were laid out in processes (global rates differ between the two layouts).
package struct TestReference: Equatable, Sendable {
  package enum ProcessLayout: String, Sendable {
    /// Batches of repetitions in one warm process per worker.
    case repetitions
    /// One process per iteration (`--fresh-process`): first-run rates.
    case fresh
  }

  package let test: PackageTest
  /// The package directory, as given on the command line, for the replay command.
  package let packagePath: String
  package let layout: ProcessLayout

  package init(test: PackageTest, packagePath: String, layout: ProcessLayout) {
    self.test = test
    self.packagePath = packagePath
    self.layout = layout
  }
}
