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
    // The machine as fields, not prose, and the seed that decided a run's random values. Runs
    // stored before keep what their prose said: a JUnit file's host, a FlakeLab run's cores and
    // system, the Swift of `Swift 6.3`.
    """
    ALTER TABLE runs ADD COLUMN host TEXT;
    ALTER TABLE runs ADD COLUMN cores INTEGER;
    ALTER TABLE runs ADD COLUMN os TEXT;
    ALTER TABLE runs ADD COLUMN swift TEXT;
    ALTER TABLE runs ADD COLUMN seed TEXT;
    UPDATE runs SET host = machine WHERE command = 'junit';
    UPDATE runs SET cores = CAST(machine AS INTEGER), os = substr(machine, instr(machine, ' cores, ') + 8)
      WHERE command != 'junit' AND machine LIKE '% cores, %';
    UPDATE runs SET swift = substr(toolchain, 7) WHERE toolchain LIKE 'Swift %';
    ALTER TABLE runs DROP COLUMN machine;
    ALTER TABLE runs DROP COLUMN toolchain;
    """,
    // Which history this is: a `-wal` whose pages say another is not this one's.
    "CREATE TABLE identity (id TEXT NOT NULL); INSERT INTO identity (id) VALUES (lower(hex(randomblob(16))));",
    // Every write counts itself here, so that the identity's page is in every commit's log: a
    // log whose commits never hold it was written for another file (``WriteAheadLog``). Also the
    // first schema with `failsInSuite` results, which an earlier FlakeLab cannot read.
    "ALTER TABLE identity ADD COLUMN writes INTEGER NOT NULL DEFAULT 0;",
    // The thread sanitizer's findings, a kind of their own: the processes that ran a test
    // sanitized (null: none did), and each race they reported, by its pair of lines.
    """
    ALTER TABLE results ADD COLUMN sanitized_runs INTEGER;
    CREATE TABLE races (
      run INTEGER NOT NULL,
      test TEXT NOT NULL,
      line TEXT NOT NULL,
      other_line TEXT NOT NULL,
      variable TEXT,
      runs INTEGER NOT NULL,
      PRIMARY KEY (run, test, line, other_line),
      FOREIGN KEY (run, test) REFERENCES results(run, test) ON DELETE CASCADE
    );
    """,
  ]

  /// What a command does with the history.
  package enum Access: Sendable {
    /// `flakelab history`, `quarantine list`: reads only, so a history on a read-only file,
    /// directory or mount can be read, and nothing is left beside it, not even WAL's files.
    case read
    /// `--record`, `history import`: writes, after the file passed SQLite's quick check.
    case write
  }

  package let path: String
  let database: OpaquePointer
  /// A private copy read in the history's place (``readableCopy(of:)``), removed when done.
  private let copy: URL?

  /// Opens the history at `path`; to write, creates it (and brings its schema up to date) when
  /// it is new or empty, and a writer waits up to `waiting` for another.
  package init(path: String, access: Access = .write, waiting: Duration = busyTimeout) throws(HistoryError) {
    self.path = path
    var status = stat()
    let existed = stat(path, &status) == 0
    // SQLite would open a FIFO and wait on it for ever; a device is no history either.
    if existed, status.st_mode & S_IFMT == S_IFDIR { throw .cannotOpen(path: path, reason: "it is a directory") }
    if existed, status.st_mode & S_IFMT != S_IFREG { throw .notARegularFile(path: path) }
    if access == .write {
      // `--record .flakelab/history.sqlite` in a package that has no `.flakelab` yet makes it.
      let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
      try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }
    if existed { try Self.refuseForeignLog(beside: path) }
    (database, copy) = try Self.open(path, access: access)
    sqlite3_busy_timeout(database, Int32((waiting / .milliseconds(1)).rounded()))
    do {
      switch access {
      case .write: try prepare(waiting: waiting)
      case .read: try checkIsHistory(migrated: true)
      }
    } catch {
      sqlite3_close(database)
      if let copy { try? FileManager.default.removeItem(at: copy) }
      // A history this call would have made, and could not, leaves nothing behind.
      if !existed { for suffix in ["", "-journal", "-wal", "-shm"] { unlink(path + suffix) } }
      throw error
    }
  }

  /// A connection to `path`, with the copy it reads instead, if any. Read-only where SQLite
  /// cannot even make WAL's shared-memory file beside it (a read-only directory or mount): as an
  /// immutable file, or, when runs are still in its `-wal`, which an immutable file never reads,
  /// from a private copy of both.
  private static func open(_ path: String, access: Access) throws(HistoryError) -> (OpaquePointer, URL?) {
    if access == .write {
      let (handle, reason) = connect(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
      guard let handle else { throw .cannotOpen(path: path, reason: reason ?? "") }
      return (handle, nil)
    }
    // SQLite makes WAL's `-wal` and `-shm` for a reader too, and only a connection that can
    // write removes them when it closes last: a read-only one leaves them beside the history.
    // Where neither is there yet and the file can be written, the read opens it read-write
    // (never creating it) and only reads; otherwise, beside another's log, read-only.
    if !exists(path + "-wal"), !exists(path + "-shm"), Glibc.access(path, W_OK) == 0 {
      let (handle, _) = connect(path, SQLITE_OPEN_READWRITE)
      if let handle, sqlite3_exec(handle, "SELECT count(*) FROM sqlite_master", nil, nil, nil) == SQLITE_OK {
        return (handle, nil)
      }
      sqlite3_close(handle)
    }
    let (handle, reason) = connect(path, SQLITE_OPEN_READONLY)
    if let handle, sqlite3_exec(handle, "SELECT count(*) FROM sqlite_master", nil, nil, nil) == SQLITE_OK {
      return (handle, nil)
    }
    sqlite3_close(handle)
    if hasLog(beside: path) {
      let copy = try readableCopy(of: path)
      let (copied, _) = connect(copy.appendingPathComponent("history.sqlite").path, SQLITE_OPEN_READONLY)
      guard let copied else {
        try? FileManager.default.removeItem(at: copy)
        throw .cannotOpen(path: path, reason: reason ?? "")
      }
      return (copied, copy)
    }
    let (immutable, _) = connect(immutableURI(path), SQLITE_OPEN_READONLY | SQLITE_OPEN_URI)
    guard let immutable else { throw .cannotOpen(path: path, reason: reason ?? "") }
    return (immutable, nil)
  }

  private static func connect(_ name: String, _ flags: Int32) -> (OpaquePointer?, String?) {
    var handle: OpaquePointer?
    guard sqlite3_open_v2(name, &handle, flags | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let handle else {
      let reason = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close(handle)
      return (nil, reason)
    }
    return (handle, nil)
  }

  /// The main file alone, as SQLite reads a file nothing else changes: no `-wal`, no locks.
  private static func immutableURI(_ path: String) -> String {
    var uri = URLComponents()
    uri.scheme = "file"
    uri.path = URL(fileURLWithPath: path).path
    uri.queryItems = [URLQueryItem(name: "immutable", value: "1")]
    return uri.string ?? path
  }

  /// Whether a `-wal` with pages in it lies beside `path` (more than its 32-byte header).
  private static func exists(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0
  }

  private static func hasLog(beside path: String) -> Bool {
    var status = stat()
    return stat(path + "-wal", &status) == 0 && status.st_size > 32
  }

  /// The history and its `-wal`, copied into a directory of the lab's own where SQLite can make
  /// the shared-memory file it needs to read the log.
  private static func readableCopy(of path: String) throws(HistoryError) -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "flakelab-history-\(UUID().uuidString)")
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      for suffix in ["", "-wal"] {
        try FileManager.default.copyItem(
          at: URL(fileURLWithPath: path + suffix), to: directory.appendingPathComponent("history.sqlite" + suffix))
      }
    } catch {
      try? FileManager.default.removeItem(at: directory)
      throw .cannotOpen(path: path, reason: "its last runs are in \(path)-wal, and no copy could be made to read them")
    }
    return directory
  }

  /// Refuses a `-wal` beside `path` that holds another history's pages: the identity the main
  /// file says differs from the one its pages say. Read-only, before any connection could apply
  /// the log, let alone checkpoint it into the history.
  private static func refuseForeignLog(beside path: String) throws(HistoryError) {
    guard hasLog(beside: path), let own = identity(at: immutableURI(path), flags: SQLITE_OPEN_URI) else { return }
    var logged = identity(at: path)
    if logged == nil, let copy = try? readableCopy(of: path) {
      logged = identity(at: copy.appendingPathComponent("history.sqlite").path)
      try? FileManager.default.removeItem(at: copy)
    }
    if let logged, logged != own { throw .foreignLog(path: path) }
    // Every FlakeLab write rewrites the identity's page: a log whose commits never hold it was
    // written for another file (or by another program), whatever pages it would replace.
    if let log = WriteAheadLog(beside: path), !log.committedPages.isEmpty,
      let page = identityPage(at: immutableURI(path), flags: SQLITE_OPEN_URI), !log.committedPages.contains(page)
    {
      throw .foreignLog(path: path)
    }
  }

  /// The page the identity's row is on (its table is one page), as `name` reads.
  private static func identityPage(at name: String, flags: Int32) -> UInt32? {
    let (handle, _) = connect(name, SQLITE_OPEN_READONLY | flags)
    guard let handle else { return nil }
    defer { sqlite3_close(handle) }
    var statement: OpaquePointer?
    let sql = "SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = 'identity'"
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else { return nil }
    defer { sqlite3_finalize(statement) }
    guard sqlite3_step(statement) == SQLITE_ROW else { return nil }
    return UInt32(exactly: sqlite3_column_int64(statement, 0))
  }

  /// The history's identity as a read-only connection to `name` sees it; nil before the history
  /// had one (an earlier schema) or where it cannot be read.
  private static func identity(at name: String, flags: Int32 = 0) -> String? {
    let (handle, _) = connect(name, SQLITE_OPEN_READONLY | flags)
    guard let handle else { return nil }
    defer { sqlite3_close(handle) }
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(handle, "SELECT id FROM identity", -1, &statement, nil) == SQLITE_OK else { return nil }
    defer { sqlite3_finalize(statement) }
    guard sqlite3_step(statement) == SQLITE_ROW, let text = sqlite3_column_text(statement, 0) else { return nil }
    return String(cString: text)
  }

  deinit {
    sqlite3_close(database)
    if let copy { try? FileManager.default.removeItem(at: copy) }
  }

  /// The schema version of the file, after ``prepare()``.
  package var schemaVersion: Int32 {
    (try? integer("PRAGMA user_version", column: "user_version")) ?? 0
  }

  /// The file's schema version, after checking it is a FlakeLab history (or, unless `migrated`
  /// is asked for, empty) of a schema this FlakeLab knows.
  @discardableResult
  private func checkIsHistory(migrated: Bool) throws(HistoryError) -> Int {
    // One statement, so one snapshot: read apart, another writer's first migration could land
    // between the reads and make a new history look like somebody else's database.
    var (application, version, tables) = (0, 0, 0)
    try statement(
      "SELECT (SELECT application_id FROM pragma_application_id) AS application, "
        + "(SELECT user_version FROM pragma_user_version) AS version, (SELECT count(*) FROM sqlite_master) AS tables"
    ).rows([]) { (row: Statement.Row) throws(HistoryError) in
      (application, version, tables) = (
        try row.integer("application") ?? 0, try row.integer("version") ?? 0, try row.integer("tables") ?? 0
      )
    }
    guard application == Int(Self.applicationID) || (application == 0 && tables == 0 && version == 0) else {
      throw .notAHistory(path: path)
    }
    guard version <= Self.migrations.count else { throw .newerSchema(path: path, version: Int32(version)) }
    // Read-only, an older schema cannot be brought up to date: the next write does that.
    if migrated, version < Self.migrations.count { throw .olderSchema(path: path, version: Int32(version)) }
    return version
  }

  /// Checks the file is a FlakeLab history (or empty) that SQLite's quick check finds whole, and
  /// not cut short,
  /// turns WAL on, and runs the migrations it lacks, each in a transaction that also sets the
  /// new version. A damaged history is never written to: what was added would be lost with it.
  private func prepare(waiting: Duration) throws(HistoryError) {
    let version = try checkIsHistory(migrated: false)
    var verdict = "ok"
    do {
      try statement("SELECT quick_check FROM pragma_quick_check(1)").rows([]) {
        (row: Statement.Row) throws(HistoryError) in
        verdict = try row.text("quick_check") ?? ""
      }
    } catch .corrupt, .notAHistory {
      verdict = "malformed"
    }
    // The quick check reads every page there is; a file cut short (a copy or cache restore that
    // stopped early) can still pass it, but never ends on a whole page.
    var status = stat()
    let pageSize = Int(try integer("PRAGMA page_size", column: "page_size"))
    let whole = stat(path, &status) != 0 || pageSize <= 0 || Int(status.st_size) % pageSize == 0
    guard verdict == "ok", whole else { throw .corrupt(path: path) }
    // Turning WAL on takes the file's exclusive lock and does not wait for it as other
    // statements do: another writer opening the same new history at once answers busy.
    try whileBusy(upTo: waiting) { () throws(HistoryError) in try execute("PRAGMA journal_mode = WAL") }
    try execute("PRAGMA foreign_keys = ON")
    for index in version..<Self.migrations.count {
      try transaction { () throws(HistoryError) in
        // Another writer may have migrated meanwhile: the version is read again inside.
        guard try integer("PRAGMA user_version", column: "user_version") == Int32(index) else { return }
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
        "INSERT OR IGNORE INTO runs (source, command, started, commit_id, branch, host, cores, os, swift, seed) "
          + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
      ).run([
        .text(run.source), .text(run.kind.rawValue), .text(Timestamp.iso8601(run.started)), .text(run.commit),
        .text(run.branch), .text(run.machine.host), .integer(run.machine.cores), .text(run.machine.os),
        .text(run.machine.swift), .text(run.seed.map { String($0) }),
      ])
      guard sqlite3_changes(database) == 1 else { return }
      added = true
      let id = Int(sqlite3_last_insert_rowid(database))
      let insert = try statement(
        "INSERT OR REPLACE INTO results (run, test, status, attempts, failures, beside_crash, sanitized_runs) "
          + "VALUES (?, ?, ?, ?, ?, ?, ?)"
      )
      let insertRace = try statement(
        "INSERT OR IGNORE INTO races (run, test, line, other_line, variable, runs) VALUES (?, ?, ?, ?, ?, ?)")
      for result in run.results {
        try insert.run([
          .integer(id), .text(result.test), .text(result.status.rawValue), .integer(result.attempts),
          .integer(result.failures), .integer(result.besideACrash ? 1 : 0), .integer(result.sanitizedRuns),
        ])
        for race in result.races {
          try insertRace.run([
            .integer(id), .text(result.test), .text(race.lines.first ?? ""), .text(race.lines.dropFirst().first ?? ""),
            .text(race.variable), .integer(race.runs),
          ])
        }
      }
    }
    return added
  }

  /// The runs that started at `since` or later (on `branch`, when given), oldest first, each
  /// with its results in the order stored and each result's races.
  package func runs(since: Date, branch: String? = nil) throws(HistoryError) -> [RecordedRun] {
    let query = try statement(
      """
      SELECT runs.id AS run, source, command, started, commit_id, branch, host, cores, os, swift, seed, test, status,
        attempts, failures, beside_crash, sanitized_runs
      FROM runs LEFT JOIN results ON results.run = runs.id
      WHERE started >= ? AND (? IS NULL OR branch = ?)
      ORDER BY started, runs.id, results.rowid
      """)
    let races = try self.races(since: since, branch: branch)
    var runs: [RecordedRun] = []
    var current: (id: Int, run: RecordedRun)?
    try query.rows([.text(Timestamp.iso8601(since)), .text(branch), .text(branch)]) {
      (row: Statement.Row) throws(HistoryError) in
      guard let id = try row.integer("run") else { throw .corrupt(path: path) }
      if current?.id != id {
        if let done = current?.run { runs.append(done) }
        guard let kind = RecordedRun.Kind(rawValue: try row.text("command") ?? ""),
          let started = try row.text("started").flatMap(Timestamp.date)
        else { throw .corrupt(path: path) }
        let machine = RecordedRun.Machine(
          host: try row.text("host"), cores: try row.integer("cores"), os: try row.text("os"),
          swift: try row.text("swift"))
        current = (
          id,
          RecordedRun(
            source: try row.text("source") ?? "", kind: kind, started: started, commit: try row.text("commit_id"),
            branch: try row.text("branch"), machine: machine, seed: try row.text("seed").flatMap { UInt64($0) },
            results: [])
        )
      }
      guard let test = try row.text("test") else { return }
      guard let status = CITest.Status(rawValue: try row.text("status") ?? "") else { throw .corrupt(path: path) }
      current?.run.results.append(
        .init(
          test: test, status: status, attempts: try row.integer("attempts") ?? 0,
          failures: try row.integer("failures") ?? 0,
          besideACrash: try row.integer("beside_crash") == 1, sanitizedRuns: try row.integer("sanitized_runs"),
          races: races[RunTest(run: id, test: test)] ?? []))
    }
    if let done = current?.run { runs.append(done) }
    return runs
  }

  /// A result's key: its run's row and its test.
  private struct RunTest: Hashable {
    let run: Int
    let test: String
  }

  /// The races of the runs that started at `since` or later, by run and test, in their order.
  private func races(since: Date, branch: String?) throws(HistoryError) -> [RunTest: [RecordedRun.Race]] {
    let query = try statement(
      """
      SELECT races.run AS run, test, line, other_line, variable, races.runs AS seen
      FROM races JOIN runs ON runs.id = races.run
      WHERE started >= ? AND (? IS NULL OR branch = ?)
      ORDER BY races.rowid
      """)
    var races: [RunTest: [RecordedRun.Race]] = [:]
    try query.rows([.text(Timestamp.iso8601(since)), .text(branch), .text(branch)]) {
      (row: Statement.Row) throws(HistoryError) in
      guard let run = try row.integer("run"), let test = try row.text("test"), let line = try row.text("line"),
        let other = try row.text("other_line"), let seen = try row.integer("seen")
      else { throw .corrupt(path: path) }
      races[RunTest(run: run, test: test), default: []].append(
        .init(lines: [line, other].filter { !$0.isEmpty }, variable: try row.text("variable"), runs: seen))
    }
    return races
  }

  /// The races (test and pair of lines) that runs before `date` recorded (on `branch`, when
  /// given): a race the window shows is new only when it is none of them.
  package func racesRecorded(before date: Date, branch: String? = nil) throws(HistoryError) -> Set<RaceID> {
    let query = try statement(
      """
      SELECT DISTINCT test, line, other_line FROM races JOIN runs ON runs.id = races.run
      WHERE started < ? AND (? IS NULL OR branch = ?)
      """)
    var known: Set<RaceID> = []
    try query.rows([.text(Timestamp.iso8601(date)), .text(branch), .text(branch)]) {
      (row: Statement.Row) throws(HistoryError) in
      guard let test = try row.text("test"), let line = try row.text("line"), let other = try row.text("other_line")
      else { throw .corrupt(path: path) }
      known.insert(RaceID(test: test, lines: [line, other].filter { !$0.isEmpty }))
    }
    return known
  }

  /// Each of `tests`' statuses in its last `limit` CI runs (`ci` and JUnit, on `branch` when
  /// given), newest first: whether a quarantined test may leave.
  package func recentStatuses(
    of tests: [String], limit: Int, branch: String? = nil
  ) throws(HistoryError) -> [String: [CITest.Status]] {
    // The statuses that ran, and the kinds that are CI runs, as `ci`'s own types say: a status
    // or a kind added there changes this query with them.
    let ran = CITest.Status.allCases.filter(\.ran)
    let ciKinds = RecordedRun.Kind.allCases.filter(\.isCI)
    let query = try statement(
      """
      SELECT status FROM results JOIN runs ON runs.id = results.run
      WHERE test = ? AND command IN (\(placeholders(ciKinds.count))) AND status IN (\(placeholders(ran.count)))
        AND beside_crash = 0 AND (? IS NULL OR branch = ?)
      ORDER BY started DESC, runs.id DESC LIMIT ?
      """)
    var recent: [String: [CITest.Status]] = [:]
    for test in tests {
      var statuses: [CITest.Status] = []
      let values: [Statement.Value] =
        [.text(test)] + ciKinds.map { .text($0.rawValue) } + ran.map { .text($0.rawValue) }
        + [.text(branch), .text(branch), .integer(limit)]
      try query.rows(values) { (row: Statement.Row) throws(HistoryError) in
        guard let status = try row.text("status").flatMap(CITest.Status.init) else { throw .corrupt(path: path) }
        statuses.append(status)
      }
      recent[test] = statuses
    }
    return recent
  }

  /// `?, ?, ?`: `count` parameters for an `IN` list.
  private func placeholders(_ count: Int) -> String {
    Array(repeating: "?", count: count).joined(separator: ", ")
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
      // The identity's page goes into every commit's log: a log is known as this history's by
      // it. SQLite writes no page an update leaves as it was, so the count changes it.
      let counted = "SELECT count(*) AS n FROM pragma_table_info('identity') WHERE name = 'writes'"
      if try integer(counted, column: "n") > 0 {
        try execute("UPDATE identity SET writes = writes + 1")
      }
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

  /// The column named `column` of the first row `sql` returns, as an integer (0 when it returns
  /// none).
  package func integer(_ sql: String, column: String) throws(HistoryError) -> Int32 {
    var value: Int32?
    try statement(sql).rows([]) { (row: Statement.Row) throws(HistoryError) in
      if value == nil { value = Int32(try row.integer(column) ?? 0) }
    }
    return value ?? 0
  }

  func error(_ status: Int32, what: String, message: String? = nil) -> HistoryError {
    let said = message ?? String(cString: sqlite3_errmsg(database))
    switch status & 0xff {
    case SQLITE_BUSY, SQLITE_LOCKED: return .locked(path: path)
    case SQLITE_NOTADB: return .notAHistory(path: path)
    case SQLITE_CORRUPT: return .corrupt(path: path)
    case SQLITE_FULL: return .full(path: path)
    // Opened, a statement that cannot open a file could not make the journal beside it.
    case SQLITE_READONLY, SQLITE_PERM, SQLITE_CANTOPEN: return .readOnly(path: path)
    case SQLITE_IOERR: return .ioFailed(path: path)
    default: return .sqlite(path: path, what: what.split(separator: "\n").first.map(String.init) ?? what, message: said)
    }
  }
}
