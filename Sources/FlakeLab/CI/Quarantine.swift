import Foundation

/// The tests whose failures do not fail a CI job: they still run and are recorded, and the report
/// says which failed and which passed. Kept in a JSON file (`.flakelab/quarantine.json` in the
/// package by default), one entry per line, sorted by test ID, so that a change to it reads as a
/// one-line diff.
package struct Quarantine: Sendable, Equatable {
  /// What an entry excuses, each a finding of its own kind: a test quarantined for its failures
  /// still races, and one whose races are known still fails.
  package enum Finding: String, Sendable, CaseIterable {
    /// Its failures fail no `flakelab ci` job, nor `history --max-failure-rate`.
    case failures
    /// Its races fail no `history --fail-on-new-races`.
    case races
  }

  package struct Entry: Sendable, Equatable {
    package let test: String
    package let reason: String
    /// The day it was added, `2026-11-24`.
    package let added: String
    package let finding: Finding

    package init(test: String, reason: String, added: String, finding: Finding = .failures) {
      self.test = test
      self.reason = reason
      self.added = added
      self.finding = finding
    }

    /// Sorted by test, its failures before its races.
    fileprivate var order: (String, Int) { (test, finding == .failures ? 0 : 1) }
  }

  package private(set) var entries: [Entry]

  /// One entry a test and finding (the first, when a hand-edited file lists one twice), sorted.
  package init(_ entries: [Entry] = []) {
    var seen = Set<String>()
    self.entries = entries.filter { seen.insert($0.finding.rawValue + " " + $0.test).inserted }.sorted {
      $0.order < $1.order
    }
  }

  /// The entries of one kind of finding.
  package func entries(excusing finding: Finding) -> [Entry] { entries.filter { $0.finding == finding } }

  /// The default file, in `packagePath`.
  package static func defaultPath(in packagePath: String) -> String {
    URL(fileURLWithPath: packagePath).appendingPathComponent(".flakelab/quarantine.json").path
  }

  /// An entry that names none of the package's tests: one renamed or removed since, whose
  /// entry now quarantines nothing. `closest` is the test it likely meant, when one is close.
  package struct StaleEntry: Sendable, Equatable {
    package let entry: Entry
    package let closest: String?

    package init(entry: Entry, closest: String?) {
      self.entry = entry
      self.closest = closest
    }
  }

  /// The entries that name none of `tests` (the package's whole listing, not a filtered one),
  /// each with the test `closest` finds for it.
  package func stale(among tests: [PackageTest], closest: (String, [String]) -> String?) -> [StaleEntry] {
    let ids = tests.map(\.id)
    let known = Set(ids)
    return entries.filter { !known.contains($0.test) }.map { StaleEntry(entry: $0, closest: closest($0.test, ids)) }
  }

  /// Adds `entry`, or replaces the entry of its test for its finding.
  package mutating func add(_ entry: Entry) {
    entries.removeAll { $0.test == entry.test && $0.finding == entry.finding }
    entries.append(entry)
    entries.sort { $0.order < $1.order }
  }

  /// Removes the entry of `test` for `finding`; whether there was one.
  package mutating func remove(_ test: String, finding: Finding = .failures) -> Bool {
    let count = entries.count
    entries.removeAll { $0.test == test && $0.finding == finding }
    return entries.count < count
  }

  /// What a quarantine file says it is (`"flakelab": "quarantine"`): a JSON document that lists
  /// tests for another reason (a `ci` report) must never excuse them.
  package static let kind = "quarantine"

  /// `{"flakelab": "quarantine", "tests": [` then one entry a line, `]}`; an entry of races says
  /// so (`"finding": "races"`), one of failures, as every entry before, says nothing.
  package var text: String {
    let lines = entries.map { entry in
      "  "
        + JSONValue.object(
          [("test", .string(entry.test)), ("reason", .string(entry.reason)), ("added", .string(entry.added))]
            + (entry.finding == .failures ? [] : [("finding", .string(entry.finding.rawValue))])
        ).serialized()
    }
    return "{\"flakelab\": \"\(Self.kind)\", \"tests\": [\n" + lines.joined(separator: ",\n")
      + (lines.isEmpty ? "" : "\n")
      + "]}\n"
  }

  private static let entryKeys: Set<String> = ["test", "reason", "added", "finding"]

  /// The quarantine `data` holds; `name` says which file in errors. A file says it is one; a file
  /// written before it did is taken only when it holds nothing but entries of a quarantine's keys.
  package static func read(_ data: some Collection<UInt8>, name: String) throws(QuarantineError) -> Quarantine {
    guard let document = JSONParser.parse(data), case .object(let members) = document,
      let tests = document["tests"]?.array
    else { throw .malformed(path: name) }
    let said = document["flakelab"]
    guard said == .string(kind) || (said == nil && members.count == 1) else { throw .notAQuarantine(path: name) }
    var entries: [Entry] = []
    for item in tests {
      guard case .object(let keys) = item, let test = item["test"]?.string, !test.isEmpty else {
        throw .malformed(path: name)
      }
      if said == nil, !keys.allSatisfy({ entryKeys.contains($0.0) }) { throw .notAQuarantine(path: name) }
      var finding = Finding.failures
      if let said = item["finding"] {
        guard let named = said.string.flatMap(Finding.init) else { throw .malformed(path: name) }
        finding = named
      }
      entries.append(
        Entry(
          test: test, reason: item["reason"]?.string ?? "", added: item["added"]?.string ?? "", finding: finding))
    }
    return Quarantine(entries)
  }

  /// More than any real quarantine file.
  static let maximumBytes = 16 << 20

  /// The file at `path`, named by the user (`--quarantine`) or found at the package's default
  /// place; an empty quarantine when there is none and `mustExist` is false, or when the file is
  /// blank (`--quarantine /dev/null` runs with none).
  package static func load(_ path: String, origin: InputFile.Origin, mustExist: Bool) throws(QuarantineError)
    -> Quarantine
  {
    let bytes: [UInt8]
    do {
      bytes = try InputFile.read(path, origin: origin, limit: maximumBytes)
    } catch  where error.problem == .missing && !mustExist {
      return Quarantine()
    } catch {
      throw .unreadable(error)
    }
    guard bytes.contains(where: { !" \t\r\n".utf8.contains($0) }) else { return Quarantine() }
    return try read(bytes, name: path)
  }

  /// Reads the file at `path`, lets `change` edit it and writes it back, all under an exclusive
  /// lock on its directory: ten `quarantine add`s at once keep all ten entries, each reading
  /// what the one before it wrote. Returns what was written.
  package static func update(
    _ path: String, origin: InputFile.Origin, mustExist: Bool,
    _ change: (inout Quarantine) throws(QuarantineError) -> Void
  ) throws(QuarantineError) -> Quarantine {
    let target = ReportFile.destination(of: path)
    var status = stat()
    // A link left dangling (committed to point anywhere) would make the file where it points.
    if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK, stat(path, &status) != 0 {
      throw .danglingLink(path: path, target: target)
    }
    let directory = URL(fileURLWithPath: target).deletingLastPathComponent().path
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let lock = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard lock >= 0 else { throw .unwritable(.writeFailed(path: path, errno: errno)) }
    defer { close(lock) }
    while flock(lock, LOCK_EX) != 0 {
      guard errno == EINTR else { throw .unwritable(.writeFailed(path: path, errno: errno)) }
    }
    var quarantine = try load(path, origin: origin, mustExist: mustExist)
    try change(&quarantine)
    do { try ReportFile.write(quarantine.text, to: path) } catch { throw .unwritable(error) }
    return quarantine
  }

  /// Today, as entries say it.
  package static func today() -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd"
    return formatter.string(from: Date())
  }
}

/// A quarantine file that cannot be used.
package enum QuarantineError: Error, Equatable {
  case unreadable(InputFileError)
  case malformed(path: String)
  /// JSON of another kind: a report lists tests too.
  case notAQuarantine(path: String)
  case unwritable(ReportFileError)
  /// A symbolic link to nothing: writing through it would make a file wherever it points.
  case danglingLink(path: String, target: String)
  /// `quarantine remove` of a test the file does not list.
  case notListed(String, finding: Quarantine.Finding, path: String)
}
