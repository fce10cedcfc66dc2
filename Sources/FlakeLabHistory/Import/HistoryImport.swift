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
      guard let document = JSONParser.parse(bytes), let version = document["flakelab"]?.string else {
        throw .unknownFormat(path: path)
      }
      if document["command"]?.string == "ci" { return try ciRun(document, path: path) }
      guard !CIJSONReader.isLater(version, than: Report.labVersion) else {
        throw .laterVersion(path: path, version: version)
      }
      let report: Report
      do { report = try ReportJSON.read(bytes, name: path) } catch { throw .report(error) }
      // A report says no start of its own: its file's time stands for it.
      guard Timestamp.hasCome(modified) else { throw .notYet(path: path, started: modified) }
      return RecordedRun(
        report, source: RecordedRun.source(ofReport: document), started: modified, commit: commit, branch: branch)
    default:
      throw .unknownFormat(path: path)
    }
  }

  /// A `flakelab ci --format json` report (``CIJSON``), as ``CIJSONReader`` reads it back.
  private static func ciRun(_ document: JSONValue, path: String) throws(ImportError) -> RecordedRun {
    do {
      return RecordedRun(try CIJSONReader.read(document))
    } catch {
      throw .malformedCIReport(path: path, what: error.what)
    }
  }
}
