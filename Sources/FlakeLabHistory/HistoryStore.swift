import CSQLite
import FlakeLab
import Foundation

/// The history of CI runs, in SQLite: one file a team keeps (`.flakelab/history.sqlite` by
/// default). It is FlakeLab's by its application ID, and its schema has a version that
/// ``migrations`` bring up to date in one transaction each. WAL lets readers read while one
/// writer writes; writers wait for each other up to ``busyTimeout`` milliseconds, and every
/// change is one transaction, so two CI jobs writing at once lose nothing and a failed write
/// changes nothing.
package final class HistoryStore {
  /// `PRAGMA application_id`: "FlkL", so that a database of anything else is never taken for a
  /// history.
  package static let applicationID: Int32 = 0x466C_6B4C

  /// How long a writer waits for another.
  static let busyTimeout: Int32 = 30_000

  /// Each migration takes the schema from its index to the next version.
  package static let migrations: [String] = [
    """
    CREATE TABLE runs (
      id INTEGER PRIMARY KEY,
      source TEXT NOT NULL UNIQUE,
      command TEXT NOT NULL,
      started TEXT NOT NULL,
      commit_id TEXT,
      branch TEXT,
      machine TEXT NOT NULL,
      toolchain TEXT NOT NULL
    );
    CREATE TABLE results (
      run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
      test TEXT NOT NULL,
      status TEXT NOT NULL,
      attempts INTEGER NOT NULL,
      failures INTEGER NOT NULL,
      PRIMARY KEY (run, test)
    );
    CREATE INDEX results_by_test ON results(test);
    """
  ]

  package let path: String
  private let database: OpaquePointer

  /// Opens the history at `path`, creating it (and bringing its schema up to date) when it is
  /// new or empty.
  package init(path: String) throws(HistoryError) {
    self.path = path
    // `--record .flakelab/history.sqlite` in a package that has no `.flakelab` yet makes it.
    let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    var handle: OpaquePointer?
    let opened = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
    guard opened == SQLITE_OK, let handle else {
      let reason = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close(handle)
      throw .cannotOpen(path: path, reason: reason)
    }
    database = handle
    sqlite3_busy_timeout(handle, Self.busyTimeout)
    do {
      try prepare()
    } catch {
      sqlite3_close(handle)
      throw error
    }
  }

  deinit {
    sqlite3_close(database)
  }

  /// The schema version of the file, after ``prepare()``.
  package var schemaVersion: Int32 {
    (try? integer("PRAGMA user_version")) ?? 0
  }

  /// Checks the file is a FlakeLab history (or empty), turns WAL on, and runs the migrations it
  /// lacks, each in a transaction that also sets the new version.
  private func prepare() throws(HistoryError) {
    let application = try integer("PRAGMA application_id")
    let version = try integer("PRAGMA user_version")
    let tables = try integer("SELECT count(*) FROM sqlite_master")
    guard application == Self.applicationID || (application == 0 && tables == 0 && version == 0) else {
      throw .notAHistory(path: path)
    }
    guard version <= Int32(Self.migrations.count) else { throw .newerSchema(path: path, version: version) }
    try execute("PRAGMA journal_mode = WAL")
    try execute("PRAGMA foreign_keys = ON")
    for index in Int(version)..<Self.migrations.count {
      try transaction { () throws(HistoryError) in
        // Another writer may have migrated meanwhile: the version is read again inside.
        guard try integer("PRAGMA user_version") == Int32(index) else { return }
        try execute(Self.migrations[index])
        try execute("PRAGMA application_id = \(Self.applicationID)")
        try execute("PRAGMA user_version = \(index + 1)")
      }
    }
  }

  /// Stores `run` in one transaction; a run from the same source is there already and adds
  /// nothing. Returns whether it was added.
  @discardableResult
  package func record(_ run: RecordedRun) throws(HistoryError) -> Bool {
    var added = false
    try transaction { () throws(HistoryError) in
      let values = [run.source, run.command, run.started, run.commit, run.branch, run.machine, run.toolchain]
      try execute(
        "INSERT OR IGNORE INTO runs (source, command, started, commit_id, branch, machine, toolchain) VALUES ("
          + values.map(Self.literal).joined(separator: ", ") + ")")
      guard try integer("SELECT changes()") == 1 else { return }
      added = true
      let id = try integer("SELECT last_insert_rowid()")
      for result in run.results {
        let values = [String(id), Self.literal(result.test), Self.literal(result.status), String(result.attempts), String(result.failures)]
        try execute("INSERT INTO results (run, test, status, attempts, failures) VALUES (" + values.joined(separator: ", ") + ")")
      }
    }
    return added
  }

  /// `text` as an SQL string literal, or NULL.
  static func literal(_ text: String?) -> String {
    text.map { "'" + $0.replacingOccurrences(of: "'", with: "''") + "'" } ?? "NULL"
  }

  /// Runs `body` in an immediate transaction (the write lock taken at once, so that two
  /// writers queue rather than fail midway), committed if it returns, rolled back if it throws.
  package func transaction(_ body: () throws(HistoryError) -> Void) throws(HistoryError) {
    try execute("BEGIN IMMEDIATE")
    do {
      try body()
      try execute("COMMIT")
    } catch {
      try? execute("ROLLBACK")
      throw error
    }
  }

  /// Runs `sql` (one or more statements, no results).
  package func execute(_ sql: String) throws(HistoryError) {
    var message: UnsafeMutablePointer<CChar>?
    let status = sqlite3_exec(database, sql, nil, nil, &message)
    defer { sqlite3_free(message) }
    guard status == SQLITE_OK else { throw error(status, what: sql, message: message.map { String(cString: $0) }) }
  }

  /// The first column of the first row `sql` returns, as an integer.
  package func integer(_ sql: String) throws(HistoryError) -> Int32 {
    var statement: OpaquePointer?
    let status = sqlite3_prepare_v2(database, sql, -1, &statement, nil)
    defer { sqlite3_finalize(statement) }
    guard status == SQLITE_OK else { throw error(status, what: sql, message: nil) }
    let step = sqlite3_step(statement)
    guard step == SQLITE_ROW else {
      if step == SQLITE_DONE { return 0 }
      throw error(step, what: sql, message: nil)
    }
    return sqlite3_column_int(statement, 0)
  }

  private func error(_ status: Int32, what: String, message: String?) -> HistoryError {
    let said = message ?? String(cString: sqlite3_errmsg(database))
    switch status & 0xff {
    case SQLITE_BUSY, SQLITE_LOCKED: return .locked(path: path)
    case SQLITE_NOTADB: return .notAHistory(path: path)
    case SQLITE_CORRUPT: return .corrupt(path: path)
    default: return .sqlite(path: path, what: what.split(separator: "\n").first.map(String.init) ?? what, message: said)
    }
  }
}
