package import FlakeLab
package import Foundation

/// The options that choose a package and its tests, one group that `test`, `ci`, `quarantine`
/// and `history` share (each declares the ones it takes): parsed here, and the package built
/// and its tests selected here, so that no command reaches into another's.
package struct PackageOptions {
  package static let packagePath = Option(
    "package-path", "DIR", "The package whose tests to run", default: ".",
    shownDefault: "the current directory"
  ) { text, _ in text }
  package static let filter = Option<NSRegularExpression>.optional(
    "filter", "REGEX",
    "Run only tests whose ID matches REGEX (any of them, when repeated), as swift test --filter matches: Swift Testing's ID ends with its File.swift:line:column",
    repeatable: true, parse: regex)
  package static let skip = Option<NSRegularExpression>.optional(
    "skip", "REGEX", "Leave out tests whose ID matches REGEX", repeatable: true, parse: regex)
  package static let skipBuild = Flag("skip-build", "Use the tests an earlier build left instead of building first.")

  /// Swift Testing's shortest `.timeLimit`: an iteration of a package's test that finishes within
  /// it is no hang (`test` and `ci`).
  static let defaultTimeout: Duration = .seconds(60)

  /// The package and the tests in it: `test` and `ci`.
  package static let selectingTests = [packagePath.spec, filter.spec, skip.spec, skipBuild.spec]

  package let path: String
  package let filters: [NSRegularExpression]
  package let skips: [NSRegularExpression]
  package let skipsBuild: Bool

  package init(_ arguments: ParsedArguments) throws(UsageError) {
    path = try arguments[Self.packagePath]
    filters = try arguments.all(Self.filter)
    skips = try arguments.all(Self.skip)
    skipsBuild = arguments[Self.skipBuild]
  }

  /// `--filter` and `--skip` as given, for the commands a report prints.
  package var selection: [String] {
    filters.flatMap { ["--filter", $0.pattern] } + skips.flatMap { ["--skip", $0.pattern] }
  }

  /// The package, built unless `--skip-build`; one that does not build says the compiler's
  /// errors first, then the one line that says so.
  package func build() throws -> TestPackage {
    do {
      return try TestPackage.build(at: path, skippingBuild: skipsBuild) { printError("\(Program.name): " + $0) }
    } catch PackageError.doesNotBuild(let path, let status, let compilerLines) {
      compilerLines.forEach(printError)
      throw PackageError.doesNotBuild(path: path, status: status, compilerLines: [])
    }
  }

  /// The package's tests, built first unless `--skip-build`, with the harness beside this lab.
  package func tests() throws -> [PackageTest] {
    let preload = try TestLaunch.preloadLibrary(besides: LabExecutables.current)
    return try build().listed(preload: preload).tests
  }

  /// The tests `--filter` and `--skip` select among `all`, as swift test --filter matches
  /// (Swift Testing's ID with its source location) and as the listing shows the ID, so that
  /// `^…()$` (every replay command's) still names its test.
  package func selected(_ all: [PackageTest], of package: TestPackage) throws(UsageError) -> [PackageTest] {
    let tests = all.filter { test in
      let ids = [test.id, package.filterID(of: test)]
      func matches(_ regex: NSRegularExpression) -> Bool {
        ids.contains { regex.firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil }
      }
      return (filters.isEmpty || filters.contains(where: matches)) && !skips.contains(where: matches)
    }
    guard !tests.isEmpty else {
      if all.isEmpty { throw UsageError("the package at '\(package.path)' has no tests") }
      let matched =
        filters.isEmpty
        ? "no test is left after --skip"
        : "no test matches " + filters.map { "'\($0.pattern)'" }.joined(separator: " or ")
      throw UsageError(
        "\(matched); \(all.count) test\(all.count == 1 ? "" : "s") exist (see '\(Program.name) test --list')")
    }
    return tests
  }

  @Sendable private static func regex(_ text: String, option: String) throws(UsageError) -> NSRegularExpression {
    guard let regex = try? NSRegularExpression(pattern: text) else {
      throw UsageError("\(option) takes a regular expression, and '\(text)' is not one")
    }
    return regex
  }
}
