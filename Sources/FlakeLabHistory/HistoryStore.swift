import CSQLite
package import FlakeLab
package import Foundation

/// The history of CI runs, in SQLite: one file a team keeps (`.flakelab/history.sqlite` by
/// default). It is FlakeLab's by its application ID, and its schema has a version that
/// ``migrations`` bring up to date in one transaction each. WAL lets readers read while one
/// writer writes; writers wait for each other up to ``busyTimeout``, and every
/// change is one transaction, so two CI jobs writing at once lose nothing and a failed write
/// changes nothing.
package final class HistoryStore {
  /// `PRAGMA application_id`: "FlkL", so that a database of anything else is never taken for a
  /// history.
  package static let applicationID: Int32 = 0x466C_6B4C

  /// How long a writer waits for another, unless told.
  package static let busyTimeout: Duration = .seconds(30)

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
      machine TEXT,
      toolchain TEXT
    );
    CREATE INDEX runs_by_time ON runs(started);
    CREATE TABLE results (
      run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
      test TEXT NOT NULL,
      status TEXT NOT NULL,
      attempts INTEGER NOT NULL,
      failures INTEGER NOT NULL,
      PRIMARY KEY (run, test)
    );
    CREATE INDEX results_by_test ON results(test);
    """,
    // A test whose failure was a crash of a process that none of the tests in flight caused
    // alone: one of them crashes, which the runs cannot tell.
    "ALTER TABLE results ADD COLUMN beside_crash INTEGER NOT NULL DEFAULT 0;",
  ]

  package let path: String
  let database: OpaquePointer

  /// Opens the history at `path`, creating it (and bringing its schema up to date) when it is
  /// new or empty; a writer waits up to `waiting` for another.
  package init(path: String, waiting: Duration = busyTimeout) throws(HistoryError) {
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
    sqlite3_busy_timeout(handle, Int32((waiting / .milliseconds(1)).rounded()))
    do {
      try prepare(waiting: waiting)
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
  private func prepare(waiting: Duration) throws(HistoryError) {
    // One statement, so one snapshot: read apart, another writer's first migration could land
    // between the reads and make a new history look like somebody else's database.
    var (application, version, tables) = (0, 0, 0)
    try statement(
      "SELECT (SELECT application_id FROM pragma_application_id), (SELECT user_version FROM pragma_user_version), "
        + "(SELECT count(*) FROM sqlite_master)"
    ).rows([]) { (row: Statement.Row) throws(HistoryError) in
      (application, version, tables) = (row.integer(0), row.integer(1), row.integer(2))
    }
    guard application == Int(Self.applicationID) || (application == 0 && tables == 0 && version == 0) else {
      throw .notAHistory(path: path)
    }
    guard version <= Self.migrations.count else { throw .newerSchema(path: path, version: Int32(version)) }
    // Turning WAL on takes the file's exclusive lock and does not wait for it as other
    // statements do: another writer opening the same new history at once answers busy.
    try whileBusy(upTo: waiting) { () throws(HistoryError) in try execute("PRAGMA journal_mode = WAL") }
    try execute("PRAGMA foreign_keys = ON")
    for index in version..<Self.migrations.count {
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
      try statement(
        "INSERT OR IGNORE INTO runs (source, command, started, commit_id, branch, machine, toolchain) VALUES (?, ?, ?, ?, ?, ?, ?)"
      ).run([
        .text(run.source), .text(run.kind.rawValue), .text(Timestamp.iso8601(run.started)), .text(run.commit),
        .text(run.branch), .text(run.machine), .text(run.toolchain),
      ])
      guard sqlite3_changes(database) == 1 else { return }
      added = true
      let id = Int(sqlite3_last_insert_rowid(database))
      let insert = try statement(
        "INSERT OR REPLACE INTO results (run, test, status, attempts, failures, beside_crash) VALUES (?, ?, ?, ?, ?, ?)")
      for result in run.results {
        try insert.run([
          .integer(id), .text(result.test), .text(result.status.rawValue), .integer(result.attempts),
          .integer(result.failures), .integer(result.besideACrash ? 1 : 0),
        ])
      }
    }
    return added
  }

  /// The runs that started at `since` or later (on `branch`, when given), oldest first, each
  /// with its results in the order stored.
  package func runs(since: Date, branch: String? = nil) throws(HistoryError) -> [RecordedRun] {
    let query = try statement(
      """
      SELECT runs.id, source, command, started, commit_id, branch, machine, toolchain, test, status, attempts, failures,
        beside_crash
      FROM runs LEFT JOIN results ON results.run = runs.id
      WHERE started >= ? AND (? IS NULL OR branch = ?)
      ORDER BY started, runs.id, results.rowid
      """)
    var runs: [RecordedRun] = []
    var current: (id: Int, run: RecordedRun)?
    try query.rows([.text(Timestamp.iso8601(since)), .text(branch), .text(branch)]) { (row: Statement.Row) throws(HistoryError) in
      let id = row.integer(0)
      if current?.id != id {
        if let done = current?.run { runs.append(done) }
        guard let kind = RecordedRun.Kind(rawValue: row.text(2) ?? ""), let started = row.text(3).flatMap(Timestamp.date) else {
          throw .corrupt(path: path)
        }
        current = (
          id,
          RecordedRun(
            source: row.text(1) ?? "", kind: kind, started: started,
            commit: row.text(4), branch: row.text(5), machine: row.text(6), toolchain: row.text(7),
            results: [])
        )
      }
      guard let test = row.text(8) else { return }
      guard let status = CITest.Status(rawValue: row.text(9) ?? "") else { throw .corrupt(path: path) }
      current?.run.results.append(
        .init(test: test, status: status, attempts: row.integer(10), failures: row.integer(11), besideACrash: row.integer(12) != 0))
    }
    if let done = current?.run { runs.append(done) }
    return runs
  }

  /// Each of `tests`' statuses in its last `limit` CI runs (`ci` and JUnit, on `branch` when
  /// given), newest first: whether a quarantined test may leave.
  package func recentStatuses(
    of tests: [String], limit: Int, branch: String? = nil
  ) throws(HistoryError) -> [String: [CITest.Status]] {
    let query = try statement(
      """
      SELECT status FROM results JOIN runs ON runs.id = results.run
      WHERE test = ? AND command != ? AND status IN ('passed', 'flaky', 'failed') AND beside_crash = 0
        AND (? IS NULL OR branch = ?)
      ORDER BY started DESC, runs.id DESC LIMIT ?
      """)
    var recent: [String: [CITest.Status]] = [:]
    for test in tests {
      var statuses: [CITest.Status] = []
      try query.rows([.text(test), .text(RecordedRun.Kind.lab.rawValue), .text(branch), .text(branch), .integer(limit)]) {
        (row: Statement.Row) throws(HistoryError) in
        guard let status = row.text(0).flatMap(CITest.Status.init) else { throw .corrupt(path: path) }
        statuses.append(status)
      }
      recent[test] = statuses
    }
    return recent
  }

  /// Runs `body` again while the file is busy, a few milliseconds apart, until `limit` has passed.
  private func whileBusy(upTo limit: Duration, _ body: () throws(HistoryError) -> Void) throws(HistoryError) {
    let clock = ContinuousClock()
    let deadline = clock.now + limit
    var pause = Duration.milliseconds(2)
    while true {
      do {
        return try body()
      } catch .locked where clock.now + pause < deadline {
        usleep(UInt32(pause / .microseconds(1)))
        pause = min(pause * 2, .milliseconds(100))
      }
    }
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

  /// The first column of the first row `sql` returns, as an integer (0 when it returns none).
  package func integer(_ sql: String) throws(HistoryError) -> Int32 {
    var value: Int32?
    try statement(sql).rows([]) { (row: Statement.Row) throws(HistoryError) in value = value ?? Int32(row.integer(0)) }
    return value ?? 0
  }

  func error(_ status: Int32, what: String, message: String? = nil) -> HistoryError {
    let said = message ?? String(cString: sqlite3_errmsg(database))
    switch status & 0xff {
    case SQLITE_BUSY, SQLITE_LOCKED: return .locked(path: path)
    case SQLITE_NOTADB: return .notAHistory(path: path)
    case SQLITE_CORRUPT: return .corrupt(path: path)
    case SQLITE_FULL: return .full(path: path)
    default: return .sqlite(path: path, what: what.split(separator: "\n").first.map(String.init) ?? what, message: said)
    }
  }
}
