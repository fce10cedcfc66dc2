import FlakeLab
import FlakeLabCommand
import FlakeLabHistory

/// The history's errors in words, for the one place errors become a command's last line
/// (`ErrorText`).
extension HistoryError: DescribedError {
  package var line: String {
    switch self {
    case .cannotOpen(let path, let reason): "cannot open the history \(path): \(reason)"
    case .notAHistory(let path):
      "\(path) is not a FlakeLab history (an SQLite file FlakeLab made); it was left as it was"
    case .corrupt(let path):
      "the history \(path) is damaged (SQLite's quick check fails, or the file is cut short); it was left as it was, and nothing is written to it: "
        + "recover what it holds with 'sqlite3 \(path) .recover | sqlite3 recovered.sqlite', or restore it from the CI cache"
    case .olderSchema(let path, let version):
      "the history \(path) has schema \(version), from an earlier FlakeLab, and is read-only here: the next write (--record, history import) brings it up to \(HistoryStore.migrations.count)"
    case .notARegularFile(let path):
      "the history \(path) is not a regular file (a FIFO, a device or a socket); it was left as it was"
    case .newerSchema(let path, let version):
      "the history \(path) has schema \(version), from a later FlakeLab; this one knows up to \(HistoryStore.migrations.count)"
    case .full(let path): "the history \(path) cannot grow: the disk is full; nothing was written"
    case .locked(let path):
      "the history \(path) stayed locked by another writer for \(HistoryStore.busyTimeout); nothing was written"
    case .readOnly(let path):
      "the history \(path) cannot be written here (the file, its directory or its mount is read-only); nothing was "
        + "written: make it writable, or name another with --record FILE (history import: --history FILE)"
    case .ioFailed(let path):
      "the disk failed a read or write of the history \(path); nothing was written: check the disk"
    case .foreignLog(let path):
      "the history \(path) has beside it a \(path)-wal written for another history or by another program (a writer "
        + "killed before the history was replaced?); nothing was read or written: move it aside (mv '\(path)-wal' "
        + "'\(path)-wal.foreign') to use the history as it is"
    case .sqlite(let path, let what, let message): "the history \(path): \(message) (\(what)); nothing was written"
    }
  }
}

extension ImportError: DescribedError {
  package var line: String {
    switch self {
    case .unreadable(let error): ErrorText.describe(error) + "; nothing was imported"
    case .unknownFormat(let path): "\(path) is neither JUnit XML nor a FlakeLab JSON report; nothing was imported"
    case .malformedXML(let path, let line, let reason):
      "\(path):\(line): not well-formed XML (\(reason)); nothing was imported"
    case .notJUnit(let path, let root):
      "\(path) is XML but not JUnit (<\(root)>, not <testsuites> or <testsuite>); nothing was imported"
    case .malformedCIReport(let path, let what): "\(path) is a flakelab ci report without \(what); nothing was imported"
    case .unnamedTestCase(let path):
      "\(path) has a <testcase> without a name, which no test can be filed under; nothing was imported"
    case .notYet(let path, let started):
      "\(path) says its run started \(Timestamp.iso8601(started)), which has not come; nothing was imported"
    case .report(let error): ErrorText.describe(error) + "; nothing was imported"
    case .notADate(let path, let text):
      "\(path) says a run started '\(Formatting.printable(text))', which is no date (ISO 8601, on the calendar); "
        + "nothing was imported"
    case .laterVersion(let path, let version):
      "\(path) was written by flakelab \(version), later than this \(Report.labVersion); nothing was imported"
    }
  }
}
