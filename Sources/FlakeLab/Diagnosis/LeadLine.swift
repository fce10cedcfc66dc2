import Foundation

/// The line a person opens first for a test that is not stable, and why that line: every
/// format leads the test's answer with it, and a pull request's annotation lands on it.
package struct LeadLine: Sendable, Equatable {
  package enum Reason: String, Sendable, CaseIterable {
    /// The call that blocked the queue's thread, in the test or a helper of its package.
    case blockingFrame = "blocking-frame"
    /// One of the two accesses of the race the thread sanitizer reported most often.
    case race
    /// The test that, run before or beside it, fails it.
    case polluter
    /// The assertion that failed most often.
    case failure
    /// The line the Swift runtime named as the process crashed (`File.swift:43: Fatal error`).
    case crash
    /// No line was recorded (a hang, a crash placed in no file of the package): where the test
    /// is declared.
    case declaration
  }

  package let location: SourceLocation
  package let reason: Reason
  /// What is at the line: the blocking call, the polluter's ID, the failure as the test said it.
  package let detail: String?

  package init(location: SourceLocation, reason: Reason, detail: String?) {
    self.location = location
    self.reason = reason
    self.detail = detail
  }

  /// The line for `finding`: the blocking frame of a test that blocks its thread, the racing
  /// line the sanitizer named (the package's code before its tests), the polluter found (when
  /// the others do not fail it too), else the commonest failure's line (where the runtime said a
  /// crash was), else the declaration.
  static func of(_ finding: TestFinding, locations: [PackageTest: SourceLocation]) -> LeadLine? {
    if finding.diagnosis == .blocksThread, let place = finding.blockedAt,
      let location = ThreadBlocks.location(of: place, from: finding.packagePath ?? ".")
    {
      return LeadLine(location: location, reason: .blockingFrame, detail: place)
    }
    if let race = racingLine(finding) { return race }
    // A polluter found first among many that fail it is no line to open.
    if let polluters = finding.polluters, polluters.isComplete || polluters.placement == .beside,
      let polluter = polluters.tests.first, let location = locations[polluter]
    {
      return LeadLine(location: location, reason: .polluter, detail: polluter.id)
    }
    if let (outcome, location) = finding.commonestFailure.flatMap({ outcome in
      finding.place(of: outcome).map { (outcome, $0) }
    }) {
      return LeadLine(location: location, reason: .failure, detail: finding.said(outcome))
    }
    if case .crashed(let crash) = finding.commonestFailure, let packagePath = finding.packagePath,
      let location = crashSite(crash.how, in: packagePath)
    {
      return LeadLine(location: location, reason: .crash, detail: crash.how)
    }
    return finding.location.map { LeadLine(location: $0, reason: .declaration, detail: nil) }
  }

  /// The line of the race reported in the most sanitized runs, with the assertion that failed
  /// beside it, for a test whose races decide its answer (``DataRace/placeToOpen(in:)``).
  private static func racingLine(_ finding: TestFinding) -> LeadLine? {
    guard finding.racesDecide, let evidence = finding.races, let seen = evidence.races.first,
      let packagePath = finding.packagePath
    else {
      return nil
    }
    guard let place = seen.race.placeToOpen(in: packagePath) else { return nil }
    var detail = RaceText.describe(seen, of: evidence, packagePath: packagePath)
    if let outcome = finding.commonestFailure, let failed = finding.place(of: outcome) {
      detail += "; fails at \(failed.place(relativeTo: packagePath)): \(finding.said(outcome))"
    }
    return LeadLine(location: place, reason: .race, detail: detail)
  }

  /// The line the runtime names in a crash's last lines, `Module/File.swift:43: Fatal error: …`
  /// (`#fileID`), found among the package's test sources: a file of that name in a folder of the
  /// module's name. Nil when it names none or a file that is not the package's.
  static func crashSite(_ how: String, in packagePath: String) -> SourceLocation? {
    guard let fatal = how.range(of: ": Fatal error") else { return nil }
    let site = how[..<fatal.lowerBound].split(separator: " ").last ?? ""
    guard let colon = site.lastIndex(of: ":"), let line = Int(site[site.index(after: colon)...]) else { return nil }
    let parts = site[..<colon].split(separator: "/")
    guard parts.count == 2, parts[1].hasSuffix(".swift") else { return nil }
    let tests = (packagePath as NSString).appendingPathComponent("Tests")
    guard let files = FileManager.default.enumerator(atPath: tests) else { return nil }
    let match = files.compactMap { $0 as? String }.sorted().first { file in
      let components = file.split(separator: "/")
      return components.last == parts[1] && components.contains(parts[0])
    }
    return match.map { SourceLocation(path: (tests as NSString).appendingPathComponent($0), line: line) }
  }

  /// `UISchedulerTests.swift:30: XCTAssertFalse failed`, the path from `directory`.
  package func text(relativeTo directory: String?) -> String {
    let what: String
    switch reason {
    case .blockingFrame: what = "blocks the queue's thread" + (detail.map { " (\($0))" } ?? "")
    case .race: what = detail ?? "a data race"
    case .polluter: what = "the test that fails it" + (detail.map { ": \($0)" } ?? "")
    case .failure: what = detail ?? "the failure"
    case .crash: what = "where the process crashed" + (detail.map { " (\($0))" } ?? "")
    case .declaration:
      what = "declared here; no line was recorded (a hang, or a crash the runtime placed in no file of the package)"
    }
    return "\(location.place(relativeTo: directory)): \(what)"
  }
}
