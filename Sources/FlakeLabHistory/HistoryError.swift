/// A history database that cannot be used; each is one line and exit 2, and nothing stored is
/// changed.
package enum HistoryError: Error, Equatable {
  /// The file cannot be opened or created (a directory, no permission, a full disk).
  case cannotOpen(path: String, reason: String)
  /// The file is a database, but not FlakeLab's (its application ID is another's), or not a
  /// database at all.
  case notAHistory(path: String)
  /// SQLite found the file damaged.
  case corrupt(path: String)
  /// A later FlakeLab wrote it, with a schema this one does not know.
  case newerSchema(path: String, version: Int32)
  /// An earlier FlakeLab wrote it, and reading cannot bring it up to date (the next write will).
  case olderSchema(path: String, version: Int32)
  /// A FIFO, a device or a socket: a history is a file.
  case notARegularFile(path: String)
  /// The disk (or the file's limit) is full: the write was rolled back.
  case full(path: String)
  /// Another writer held it past the wait (`busy_timeout`).
  case locked(path: String)
  /// It cannot be written here: the file, its directory or its mount is read-only, or its
  /// journal cannot be made beside it.
  case readOnly(path: String)
  /// The disk failed a read or a write under it.
  case ioFailed(path: String)
  /// The `-wal` beside it holds another history's pages (left by a writer killed before a cache
  /// restore replaced the history): applied, it would show that history's runs as this one's.
  case foreignLog(path: String)
  /// SQLite said no: the statement, and its message.
  case sqlite(path: String, what: String, message: String)
}
