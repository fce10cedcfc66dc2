import Foundation

/// The tests whose failures do not fail a CI job: they still run and are recorded, and the report
/// says which failed and which passed. Kept in a JSON file (`.flakelab/quarantine.json` in the
/// package by default), one entry per line, sorted by test ID, so that a change to it reads as a
/// one-line diff.
package struct Quarantine: Sendable, Equatable {
  package struct Entry: Sendable, Equatable {
    package let test: String
    package let reason: String
    /// The day it was added, `2026-11-24`.
    package let added: String

    package init(test: String, reason: String, added: String) {
      self.test = test
      self.reason = reason
      self.added = added
    }
  }

  package private(set) var entries: [Entry]

  package init(_ entries: [Entry] = []) {
    self.entries = entries.sorted { $0.test < $1.test }
  }

  /// The default file, in `packagePath`.
  package static func defaultPath(in packagePath: String) -> String {
    URL(fileURLWithPath: packagePath).appendingPathComponent(".flakelab/quarantine.json").path
  }

  package func entry(for test: PackageTest) -> Entry? {
    entries.first { $0.test == test.id }
  }

  /// Adds `entry`, or replaces the entry of its test.
  package mutating func add(_ entry: Entry) {
    entries.removeAll { $0.test == entry.test }
    entries.append(entry)
    entries.sort { $0.test < $1.test }
  }

  /// Removes the entry of `test`; whether there was one.
  package mutating func remove(_ test: String) -> Bool {
    let count = entries.count
    entries.removeAll { $0.test == test }
    return entries.count < count
  }

  /// `{"tests": [` then one entry a line, `]}`.
  package var text: String {
    let lines = entries.map { entry in
      "  " + JSONValue.object([
        ("test", .string(entry.test)), ("reason", .string(entry.reason)), ("added", .string(entry.added)),
      ]).serialized()
    }
    return "{\"tests\": [\n" + lines.joined(separator: ",\n") + (lines.isEmpty ? "" : "\n") + "]}\n"
  }

  /// The quarantine `data` holds; `name` says which file in errors.
  package static func read(_ data: some Collection<UInt8>, name: String) throws(QuarantineError) -> Quarantine {
    guard let document = JSONParser.parse(data), let tests = document["tests"]?.array else {
      throw .malformed(path: name)
    }
    var entries: [Entry] = []
    for item in tests {
      guard let test = item["test"]?.string, !test.isEmpty else { throw .malformed(path: name) }
      entries.append(Entry(test: test, reason: item["reason"]?.string ?? "", added: item["added"]?.string ?? ""))
    }
    return Quarantine(entries)
  }

  /// The file at `path`; an empty quarantine when there is none and `mustExist` is false, or when
  /// the file is empty (`--quarantine /dev/null` runs with none).
  package static func load(_ path: String, mustExist: Bool) throws(QuarantineError) -> Quarantine {
    guard let data = SystemCalls.readAll(atPath: path) else {
      if mustExist || FileManager.default.fileExists(atPath: path) { throw .unreadable(path: path) }
      return Quarantine()
    }
    guard data.contains(where: { !" \t\r\n".utf8.contains($0) }) else { return Quarantine() }
    return try read(data, name: path)
  }

  /// Writes the file whole, through ``ReportFile/write(_:to:)`` (a reader never sees half).
  package func save(to path: String) throws(ReportFileError) {
    let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try ReportFile.write(text, to: path)
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
  case unreadable(path: String)
  case malformed(path: String)
  /// `quarantine remove` of a test the file does not list.
  case notListed(String, path: String)
}
