import FlakeLab
import Foundation

/// A file given to `flakelab history import`, as a run of the history: JUnit XML, or a FlakeLab
/// JSON report (`ci`'s, filed under its run's own ID, commit and branch; `test`'s, under its
/// digest). A file that says no commit of its own is filed under `commit` and `branch` (the
/// checkout the import runs in, unless told). The source is what makes a second import of the
/// same run add nothing.
package enum HistoryImport {
  package static func run(_ path: String, commit: String?, branch: String?) throws(ImportError) -> RecordedRun {
    let bytes: [UInt8]
    do { bytes = try InputFile.read(path, origin: .named) } catch { throw .unreadable(error) }
    let modified =
      (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? Date()
    switch bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }) {
    case UInt8(ascii: "<"):
      return try JUnitImport.run(
        bytes, path: path, source: "junit-sha256:" + SHA256.hex(of: bytes), modified: modified, commit: commit,
        branch: branch)
    case UInt8(ascii: "{"):
      guard let document = JSONParser.parse(bytes), document["flakelab"]?.string != nil else {
        throw .unknownFormat(path: path)
      }
      if document["command"]?.string == "ci" { return try ciRun(document, path: path) }
      do {
        let report = try JSONReport.read(bytes, name: path)
        return RecordedRun(
          report, source: RecordedRun.source(ofReport: String(decoding: bytes, as: UTF8.self)), started: modified,
          commit: commit, branch: branch)
      } catch {
        throw .report(error)
      }
    default:
      throw .unknownFormat(path: path)
    }
  }

  /// A `flakelab ci --format json` report (``CIJSON``).
  private static func ciRun(_ document: JSONValue, path: String) throws(ImportError) -> RecordedRun {
    guard let id = document["id"]?.string else { throw .malformedCIReport(path: path, what: "its run's id") }
    guard let started = document["started"]?.string.flatMap(Timestamp.date) else {
      throw .malformedCIReport(path: path, what: "when it started")
    }
    var results: [RecordedRun.Result] = []
    for test in document["tests"]?.array ?? [] {
      guard let name = test["test"]?.string, let status = test["status"]?.string.flatMap(CITest.Status.init),
        let attempts = test["attempts"]?.array
      else { throw .malformedCIReport(path: path, what: "a test's id, status and attempts") }
      let failures = attempts.filter { ["failed", "crashed", "timedOut", "deadlocked"].contains($0["outcome"]?.string) }.count
      let crash = attempts.first?["crash"]
      // As ``CITest/isFlakyBesideACrash`` says it, from what the report wrote.
      let besideACrash =
        status == .flaky && !(crash?["beside"]?.array ?? []).isEmpty && crash?["crashedAlone"]?.bool == false
      results.append(
        .init(test: name, status: status, attempts: attempts.count, failures: failures, besideACrash: besideACrash))
    }
    let machine = document["machine"].map(JSONReport.machine)
    return RecordedRun(
      source: "flakelab-ci:" + id, kind: .ci, started: started, commit: document["commit"]?.string,
      branch: document["branch"]?.string, machine: machine.map(RecordedRun.machine),
      toolchain: machine.map(RecordedRun.toolchain), results: results)
  }
}
