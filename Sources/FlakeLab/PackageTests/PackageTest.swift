/// A test of the user's package, as its test binary lists it.
///
/// The ID is the one the framework prints: `NumberFactsTests.IsLoadingTests/yield()` for Swift
/// Testing, `NumberFactsTests.IsLoadingXCTests/testYield` for XCTest, `NumberFactsTests.yield()`
/// for a Swift Testing test at file scope. In reports the suite (all before the last `/`, or the
/// module for a test at file scope) stands where a scenario does and the test function where a
/// variant does,
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

  /// `NumberFactsTests.IsLoadingTests`, or `NumberFactsTests` for a test at file scope.
  package var suite: String {
    functionStart == id.startIndex ? id : String(id[..<functionStart].dropLast())
  }

  /// `yield()`.
  package var function: String {
    String(id[functionStart...])
  }

  /// Where the function's name begins: after the last `/` outside a raw identifier
  /// (`` `a/b works`() ``), or at file scope after the last `.` before the argument labels
  /// (`Module.test(x:)`).
  private var functionStart: String.Index {
    var isRaw = false
    var lastSlash: String.Index?
    var lastDotBeforeArguments: String.Index?
    var inArguments = false
    for index in id.indices {
      switch id[index] {
      case "`": isRaw.toggle()
      case "/" where !isRaw: lastSlash = index
      case "(" where !isRaw: inArguments = true
      case "." where !isRaw && !inArguments: lastDotBeforeArguments = index
      default: break
      }
    }
    if let lastSlash { return id.index(after: lastSlash) }
    return lastDotBeforeArguments.map { id.index(after: $0) } ?? id.startIndex
  }
}

/// What a report says of a run that measured a package's test: which test, where, and how its
/// iterations were laid out in processes (global rates differ between the layouts).
package struct TestReference: Equatable, Sendable {
  package enum ProcessLayout: String, Sendable, CaseIterable {
    /// An iteration is one pass over every selected test in a fresh process, run as `swift test`
    /// runs them: the test beside its neighbours.
    case suite
    /// Batches of one test's repetitions in one warm process per worker.
    case repetitions
    /// One process per iteration of one test: first-run rates.
    case fresh
    /// A suite pass with the tests one at a time under global, as `swift test --no-parallel` and
    /// Xcode run them: beside its neighbours in order, with the pool to itself.
    case oneAtATime = "one-at-a-time"
    /// A screen's pass of each test alone, in a fresh process of its own, as `swift test
    /// --filter` runs one: a test that needs another to run before it, or a warm process, can
    /// fail here and pass every other pass.
    case alone
    /// Repetitions in warm processes with busy threads competing for every core: the noise that
    /// exposes a test that real time decides (Shaker's stress).
    case stressed
    /// Fresh processes replaying chosen iterations' seeds: those that failed and as many that
    /// passed, to see whether the seed decides the outcome.
    case replay

    /// The layouts `--layout` offers; the others are the diagnosis's own.
    package static let chosenByUsers: [ProcessLayout] = [.suite, .repetitions, .fresh]

    /// Whether the test shares its process with other tests (a suite pass), not alone.
    package var isSuitePass: Bool { self == .suite || self == .oneAtATime }
  }

  package let test: PackageTest
  /// The package directory, as given on the command line, for the replay command.
  package let packagePath: String
  package let layout: ProcessLayout
  /// Set for the diagnosis's second seed: an arm run again, apart, to see whether the cause
  /// its first runs showed shows again (``Diagnostician``).
  package var isConfirmation = false

  package init(test: PackageTest, packagePath: String, layout: ProcessLayout, isConfirmation: Bool = false) {
    self.test = test
    self.packagePath = packagePath
    self.layout = layout
    self.isConfirmation = isConfirmation
  }
}
