import Foundation
import XCTest

@testable import FlakeLab
@testable import FlakeLabHistory

/// The history's file: FlakeLab's own, its schema brought up to date, WAL, and writers that wait
/// for one another; anything else is refused with nothing in it changed.
final class HistoryStoreTests: XCTestCase {
  private var directory: URL!

  override func setUp() async throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("history-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDown() async throws {
    try? FileManager.default.removeItem(at: directory)
  }

  private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

  func testANewHistoryHasTheSchemaInWALAndOpensAgain() throws {
    let file = path(".flakelab/history.sqlite")
    do {
      let store = try HistoryStore(path: file)
      XCTAssertEqual(store.schemaVersion, Int32(HistoryStore.migrations.count))
      XCTAssertEqual(try store.integer("PRAGMA application_id", column: "application_id"), HistoryStore.applicationID)
      XCTAssertEqual(
        try store.integer("SELECT count(*) AS n FROM sqlite_master WHERE name IN ('runs', 'results')", column: "n"), 2)
      // In WAL, a connection that has written keeps its log beside the file.
      XCTAssertTrue(FileManager.default.fileExists(atPath: file + "-wal"))
    }
    let again = try HistoryStore(path: file)
    XCTAssertEqual(again.schemaVersion, Int32(HistoryStore.migrations.count))
    let header = try String(contentsOfFile: file, encoding: .isoLatin1).prefix(15)
    XCTAssertEqual(String(header), "SQLite format 3")
  }

  func testWhatIsNotAHistoryIsRefusedAndLeftAsItWas() throws {
    let text = path("notes.txt")
    try Data("not a database at all, just words\n".utf8).write(to: URL(fileURLWithPath: text))
    XCTAssertThrowsError(try HistoryStore(path: text)) { XCTAssertEqual($0 as? HistoryError, .notAHistory(path: text)) }
    XCTAssertEqual(try String(contentsOfFile: text, encoding: .utf8), "not a database at all, just words\n")

    let other = path("other.sqlite")
    let shell = Process()
    shell.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    shell.arguments = ["sqlite3", other, "CREATE TABLE t(x); INSERT INTO t VALUES (1);"]
    try shell.run()
    shell.waitUntilExit()
    let before = try Data(contentsOf: URL(fileURLWithPath: other))
    XCTAssertThrowsError(try HistoryStore(path: other)) {
      XCTAssertEqual($0 as? HistoryError, .notAHistory(path: other))
    }
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: other)), before)

    XCTAssertThrowsError(try HistoryStore(path: directory.path)) {
      guard case .cannotOpen? = $0 as? HistoryError else { return XCTFail("\($0)") }
    }
  }

  func testAHistoryFromALaterFlakeLabIsRefused() throws {
    let file = path("later.sqlite")
    try HistoryStore(path: file).execute("PRAGMA user_version = 99")
    XCTAssertThrowsError(try HistoryStore(path: file)) {
      XCTAssertEqual($0 as? HistoryError, .newerSchema(path: file, version: 99))
    }
  }

  /// A history the first schema wrote, made by the sqlite3 shell, opens migrated with its runs
  /// as they were, and the machine its prose named as fields.
  func testAHistoryOfTheFirstSchemaIsMigratedWithItsRunsKept() throws {
    let file = path("v1.sqlite")
    let shell = Process()
    shell.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    shell.arguments = [
      "sqlite3", file,
      HistoryStore.migrations[0] + "PRAGMA application_id = \(HistoryStore.applicationID); PRAGMA user_version = 1;"
        + "INSERT INTO runs VALUES (1, 's', 'ci', '2026-11-20T10:00:00Z', 'c', 'main', '2 cores, Ubuntu 24.04 (x86_64)', 'Swift 6.3');"
        + "INSERT INTO runs VALUES (2, 'j', 'junit', '2026-11-21T10:00:00Z', 'c', 'main', 'ci-7', NULL);"
        + "INSERT INTO results VALUES (1, 'M.t()', 'flaky', 2, 1);",
    ]
    try shell.run()
    shell.waitUntilExit()
    XCTAssertEqual(shell.terminationStatus, 0)
    let store = try HistoryStore(path: file)
    XCTAssertEqual(store.schemaVersion, Int32(HistoryStore.migrations.count))
    XCTAssertGreaterThan(HistoryStore.migrations.count, 1)
    let runs = try store.runs(since: Date(timeIntervalSince1970: 0))
    XCTAssertEqual(runs.map(\.source), ["s", "j"])
    XCTAssertEqual(
      runs.first?.results, [.init(test: "M.t()", status: .flaky, attempts: 2, failures: 1, besideACrash: false)])
    XCTAssertEqual(
      runs.map(\.machine),
      [.init(cores: 2, os: "Ubuntu 24.04 (x86_64)", swift: "6.3"), .init(host: "ci-7")])
  }

  /// A statement given more or fewer values than it has parameters is refused, not run with
  /// NULL in a parameter's place; a row is read by its columns' names.
  func testBindsAreCountedAndRowsReadByName() throws {
    let store = try HistoryStore(path: path("binds.sqlite"))
    let insert = try store.statement("INSERT INTO runs (source, command, started) VALUES (?, ?, ?)")
    for values: [Statement.Value] in [[.text("s"), .text("ci")], [.text("s"), .text("ci"), .text("t"), .text("x")]] {
      XCTAssertThrowsError(try insert.run(values)) { error in
        guard case .sqlite(_, _, let message)? = error as? HistoryError else { return XCTFail("\(error)") }
        XCTAssertTrue(message.contains("bound to 3 parameters"), message)
      }
    }
    try insert.run([.text("s"), .text("ci"), .text("2026-11-20T10:00:00Z")])
    XCTAssertEqual(try store.integer("SELECT count(*) AS n FROM runs", column: "n"), 1)
    try store.statement("SELECT source, command FROM runs").rows([]) { (row: Statement.Row) throws(HistoryError) in
      XCTAssertEqual(try row.text("command"), "ci")
      XCTAssertThrowsError(try row.text("machine"))
    }
  }

  /// A writer that holds the history past another's wait: that one gives up with `locked`, and
  /// what it meant to write is not half there.
  func testAWriterHeldPastItsWaitIsRefusedWithNothingWritten() throws {
    let file = path("held.sqlite")
    let holder = try HistoryStore(path: file)
    try holder.execute("BEGIN IMMEDIATE")
    let waiting = try HistoryStore(path: file, waiting: .milliseconds(200))
    let run = RecordedRun(
      source: "s", kind: .junit, started: Date(), commit: nil, branch: nil,
      results: [.init(test: "M.t()", status: .passed, attempts: 1, failures: 0)])
    XCTAssertThrowsError(try waiting.record(run)) { XCTAssertEqual($0 as? HistoryError, .locked(path: file)) }
    try holder.execute("ROLLBACK")
    XCTAssertEqual(try waiting.integer("SELECT count(*) AS n FROM runs", column: "n"), 0)
    XCTAssertTrue(try waiting.record(run), "once the other is done")
  }

  /// A full disk, as SQLite meets it (the file held to the pages it has): `full`, the write
  /// rolled back, what was stored before still there.
  func testAFullDiskLosesNothingStoredAndWritesNothingHalf() throws {
    let file = path("full.sqlite")
    let store = try HistoryStore(path: file)
    func run(_ source: String, tests: Int) -> RecordedRun {
      RecordedRun(
        source: source, kind: .junit, started: Date(), commit: "c", branch: nil,
        results: (0..<tests).map { .init(test: "M.test\($0)()", status: .passed, attempts: 1, failures: 0) })
    }
    XCTAssertTrue(try store.record(run("first", tests: 3)))
    let pages = try store.integer("PRAGMA page_count", column: "page_count")
    try store.execute("PRAGMA max_page_count = \(pages)")
    XCTAssertThrowsError(try store.record(run("second", tests: 2_000))) {
      XCTAssertEqual($0 as? HistoryError, .full(path: file))
    }
    let kept = try store.runs(since: Date(timeIntervalSince1970: 0))
    XCTAssertEqual(kept.map(\.source), ["first"])
    XCTAssertEqual(kept.first?.results.count, 3)
  }

  /// Two writers at once, each committing its own transactions: every row of both is there.
  func testTwoWritersAtOnceLoseNothing() throws {
    let file = path("shared.sqlite")
    _ = try HistoryStore(path: file)
    let failures = Locked([String]())
    DispatchQueue.concurrentPerform(iterations: 2) { writer in
      do {
        let store = try HistoryStore(path: file)
        for index in 0..<100 {
          try store.transaction { () throws(HistoryError) in
            try store.execute(
              "INSERT INTO runs (source, command, started, host, swift) VALUES ('w\(writer)-\(index)', 'ci', 'now', 'm', 't')"
            )
          }
        }
      } catch {
        failures.withLock { $0.append("\(error)") }
      }
    }
    XCTAssertEqual(failures.withLock { $0 }, [])
    XCTAssertEqual(try HistoryStore(path: file).integer("SELECT count(*) AS n FROM runs", column: "n"), 200)
  }
}

extension HistoryStoreTests {
  private func run(_ source: String) -> RecordedRun {
    RecordedRun(
      source: source, kind: .junit, started: Date(), commit: "c", branch: nil,
      results: [.init(test: "M.t()", status: .passed, attempts: 1, failures: 0)])
  }

  /// Opened to read or to write, `history` is refused for the log beside it, and left as it was.
  private func assertRefused(_ history: String, unchangedFrom before: Data, line: UInt = #line) {
    for access in [HistoryStore.Access.read, .write] {
      XCTAssertThrowsError(try HistoryStore(path: history, access: access), line: line) {
        XCTAssertEqual($0 as? HistoryError, .foreignLog(path: history), line: line)
      }
    }
    XCTAssertEqual(try? Data(contentsOf: URL(fileURLWithPath: history)), before, "left as it was", line: line)
  }

  /// A `-wal` left beside a history by a killed writer, after a cache restore replaced the
  /// history with another: refused before anything applies it, the history as it was.
  func testAWriteAheadLogOfAnotherHistoryIsRefusedAndNeverApplied() throws {
    let history = path("h.sqlite")
    do {
      let store = try HistoryStore(path: history)
      try store.record(run("ours"))
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: history + "-wal"), "closed, its log was checkpointed")
    let before = try Data(contentsOf: URL(fileURLWithPath: history))
    let other = path("other.sqlite")
    let writer = try HistoryStore(path: other)
    try writer.record(run("theirs"))
    // The other writer is still open, its pages in its log: that log is left beside ours.
    try FileManager.default.copyItem(atPath: other + "-wal", toPath: history + "-wal")
    assertRefused(history, unchangedFrom: before)
    try FileManager.default.removeItem(atPath: history + "-wal")
    XCTAssertEqual(try HistoryStore(path: history, access: .read).runs(since: .distantPast).map(\.source), ["ours"])
  }

  /// Another history's log that never rewrote its identity page (written by another program,
  /// or by an earlier FlakeLab) is refused by what it is, not by what it changed: its commits do
  /// not hold this history's identity page, which every FlakeLab write rewrites.
  func testALogWhoseCommitsNeverHoldThisHistorysIdentityIsRefused() throws {
    let history = path("h.sqlite")
    do {
      let store = try HistoryStore(path: history)
      try store.record(run("ours"))
    }
    let before = try Data(contentsOf: URL(fileURLWithPath: history))
    let other = path("other.sqlite")
    do {
      let made = try HistoryStore(path: other)
      try made.record(run("made"))
    }
    // Another program's write: the runs' pages in the log, the identity's not.
    let writer = try HistoryStore(path: other)
    try writer.execute("UPDATE runs SET source = 'theirs'")
    let log = try XCTUnwrap(WriteAheadLog(beside: other))
    XCTAssertFalse(log.committedPages.isEmpty)
    try FileManager.default.copyItem(atPath: other + "-wal", toPath: history + "-wal")
    assertRefused(history, unchangedFrom: before)
    // Its own log, a writer's still open, is read as ever.
    try FileManager.default.removeItem(atPath: history + "-wal")
    let ours = try HistoryStore(path: history)
    try ours.record(run("second"))
    let read = try HistoryStore(path: history, access: .read)
    XCTAssertEqual(try read.runs(since: .distantPast).map(\.source).sorted(), ["ours", "second"])
  }

  /// A history whose last runs are still in its `-wal`, in a directory where SQLite cannot make
  /// the shared-memory file: every run is read, none missed, and nothing is written beside it.
  func testTheRunsStillInTheLogOfAReadOnlyHistoryAreRead() throws {
    let history = path("h.sqlite")
    do {
      let store = try HistoryStore(path: history)
      for source in ["1", "2", "3", "4"] { try store.record(run(source)) }
    }
    let writer = try HistoryStore(path: history)
    try writer.record(run("5"))
    let shelf = directory.appendingPathComponent("shelf")
    try FileManager.default.createDirectory(at: shelf, withIntermediateDirectories: true)
    for suffix in ["", "-wal"] {
      try FileManager.default.copyItem(
        atPath: history + suffix, toPath: shelf.appendingPathComponent("h.sqlite" + suffix).path)
    }
    let mount = directory.appendingPathComponent("readonly")
    try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
    let mounted = try CapturedProcess.run("mount", ["--bind", "-o", "ro", shelf.path, mount.path])
    try XCTSkipIf(mounted.status != 0, "no read-only bind mount here: \(mounted.errorOutput)")
    defer { _ = try? CapturedProcess.run("umount", [mount.path]) }
    let read = try HistoryStore(path: mount.appendingPathComponent("h.sqlite").path, access: .read)
    XCTAssertEqual(try read.runs(since: .distantPast).map(\.source), ["1", "2", "3", "4", "5"])
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: shelf.path).sorted(), ["h.sqlite", "h.sqlite-wal"])
  }

  /// Writers that open the same new history at once (two CI jobs on a fresh cache): each gets a
  /// history, none mistakes the other's first migration for somebody else's database or fails
  /// to turn WAL on while the other does. Fifty new files, four writers each.
  /// `flakelab history` read a history and left WAL's `-wal` and `-shm` beside it.
  func testAReadLeavesNothingBesideTheHistory() throws {
    let file = path("h.sqlite")
    do { _ = try HistoryStore(path: file) }
    XCTAssertFalse(FileManager.default.fileExists(atPath: file + "-wal"))
    do { XCTAssertEqual(try HistoryStore(path: file, access: .read).runs(since: .distantPast).count, 0) }
    for suffix in ["-wal", "-shm"] { XCTAssertFalse(FileManager.default.fileExists(atPath: file + suffix), suffix) }
  }

  func testWritersOpeningANewHistoryAtOnceAllGetIt() throws {
    let failures = Locked([String]())
    for round in 0..<50 {
      let file = path("new-\(round).sqlite")
      DispatchQueue.concurrentPerform(iterations: 4) { writer in
        do {
          let store = try HistoryStore(path: file)
          try store.transaction { () throws(HistoryError) in
            try store.execute(
              "INSERT INTO runs (source, command, started, host, swift) VALUES ('w\(writer)', 'ci', 'now', 'm', 't')")
          }
        } catch {
          failures.withLock { $0.append("round \(round), writer \(writer): \(error)") }
        }
      }
      XCTAssertEqual(
        try HistoryStore(path: file).integer("SELECT count(*) AS n FROM runs", column: "n"), 4, "round \(round)")
    }
    XCTAssertEqual(failures.withLock { $0 }, [])
  }
}
