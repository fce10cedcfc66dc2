import Foundation

/// Report files: written so that readers only ever see a complete file (the text goes to a
/// temporary file beside the target, is flushed to disk, and is renamed over the target), and
/// read back for `merge` and `--baseline`.
package enum ReportFile {
  package static func read(_ path: String) throws(ReportFileError) -> Report {
    let bytes: [UInt8]
    do { bytes = try InputFile.read(path, origin: .named) } catch { throw .unreadable(error) }
    return try ReportJSON.read(bytes, name: path)
  }

  /// Fails unless a report can be written to `path`: checked before a run, so that a typo in
  /// `--output` costs nothing measured.
  ///
  /// A report only ever replaces a regular file: written as root (as CI often is), a rename
  /// over `/dev/null` or `/dev/full` would replace the device itself, and over a FIFO the pipe.
  /// Whether the directory takes a new file is tried, not inferred from its permissions, which
  /// root passes everywhere (`/proc`).
  package static func checkWritable(_ path: String) throws(ReportFileError) {
    guard !path.isEmpty else { throw .emptyPath }
    var status = stat()
    if stat(path, &status) == 0 {
      switch status.st_mode & S_IFMT {
      case S_IFREG:
        for descriptor in [STDOUT_FILENO, STDERR_FILENO] {
          var standard = stat()
          if fstat(descriptor, &standard) == 0, standard.st_dev == status.st_dev, standard.st_ino == status.st_ino {
            throw .isStandardStream(path: path)
          }
        }
      case S_IFDIR: throw .isDirectory(path: path)
      default:
        throw .notARegularFile(path: path)
      }
    }
    let directory = URL(fileURLWithPath: destination(of: path)).deletingLastPathComponent().path
    let probe = "\(directory)/.flakelab-probe-\(getpid())"
    let descriptor = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw .directoryRefuses(path: path, directory: directory, errno: errno)
    }
    close(descriptor)
    unlink(probe)
  }

  /// Whether `path` and `other` name one file, or would once it is written: the same inode
  /// where both exist, else the same path once its directory is resolved as the kernel resolves
  /// it (`linkdir/../new.sqlite` is the `new.sqlite` beside what `linkdir` links to, not the one
  /// beside `linkdir`).
  package static func sameFile(_ path: String, _ other: String) -> Bool {
    let (first, second) = (destination(of: path), destination(of: other))
    var (a, b) = (stat(), stat())
    if stat(first, &a) == 0, stat(second, &b) == 0 { return a.st_dev == b.st_dev && a.st_ino == b.st_ino }
    return physical(first) == physical(second)
  }

  /// `path` with its deepest existing directory resolved by the kernel (`realpath`: links and
  /// `..` as a write through it would follow them), the parts not there yet as they are.
  static func physical(_ path: String) -> String {
    var directory = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    var rest: [String] = []
    while directory.count > 1 {
      let split = directory.lastIndex(of: "/") ?? directory.startIndex
      rest.insert(String(directory[directory.index(after: split)...]), at: 0)
      directory = split == directory.startIndex ? "/" : String(directory[..<split])
      if let resolved = realpath(directory, nil) {
        defer { free(resolved) }
        let base = String(cString: resolved)
        return (base == "/" ? "" : base) + "/" + rest.joined(separator: "/")
      }
    }
    return "/" + rest.joined(separator: "/")
  }

  /// Where a report for `path` goes: through symbolic links (even to a file not there yet) to
  /// their target, which is replaced; the link stays.
  package static func destination(of path: String) -> String {
    var current = path
    for _ in 0..<16 {
      guard let link = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else { break }
      current =
        link.hasPrefix("/")
        ? link : URL(fileURLWithPath: current).deletingLastPathComponent().appendingPathComponent(link).path
    }
    return current
  }

  package static func write(_ text: String, to path: String) throws(ReportFileError) {
    let target = destination(of: path)
    let temporary = "\(target).tmp-\(getpid())"
    // A fresh file of our own: never through a link someone left at the temporary name.
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw .writeFailed(path: path, errno: errno)
    }
    // A replaced report keeps the old file's permissions (and owner, where this process may).
    var old = stat()
    if stat(target, &old) == 0, old.st_mode & S_IFMT == S_IFREG {
      _ = fchmod(descriptor, old.st_mode & 0o7777)
      _ = fchown(descriptor, old.st_uid, old.st_gid)
    } else if stat(target, &old) == 0 {
      close(descriptor)
      unlink(temporary)
      throw .notARegularFile(path: path)
    }
    let complete = SystemCalls.writeAll(text.utf8, to: descriptor) && fsync(descriptor) == 0
    close(descriptor)
    guard complete, rename(temporary, target) == 0 else {
      let code = errno
      unlink(temporary)
      throw .writeFailed(path: path, errno: code)
    }
  }

  /// Adds `text` at the end of the file at `path`, creating it if need be: a CI job's summary
  /// page (`$GITHUB_STEP_SUMMARY`), which other steps write to as well.
  package static func append(_ text: String, to path: String) throws(ReportFileError) {
    // Not blocking to open: a named pipe no one reads would hold the run for ever (ENXIO
    // instead); once open, writes wait for the reader as usual.
    let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0o644)
    guard descriptor >= 0 else { throw .writeFailed(path: path, errno: errno) }
    defer { close(descriptor) }
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
    guard SystemCalls.writeAll(text.utf8, to: descriptor) else { throw .writeFailed(path: path, errno: errno) }
  }
}
