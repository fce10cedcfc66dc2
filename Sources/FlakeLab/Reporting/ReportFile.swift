import Foundation

/// Report files: written so that readers only ever see a complete file (the text goes to a
/// temporary file beside the target, is flushed to disk, and is renamed over the target), and
/// read back for `merge` and `--baseline`.
package enum ReportFile {
  package static func read(_ path: String) throws(UsageError) -> Report {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw UsageError("cannot read \(path)")
    }
    return try JSONReportReader.read(data, name: path)
  }

  /// Fails unless a report can be written to `path`: checked before a run, so that a typo in
  /// `--output` costs nothing measured.
  package static func checkWritable(_ path: String) throws(UsageError) {
    let target = destination(of: path)
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: target, isDirectory: &isDirectory), isDirectory.boolValue {
      throw UsageError("cannot write \(path): it is a directory")
    }
    let directory = URL(fileURLWithPath: target).deletingLastPathComponent().path
    guard access(directory, W_OK) == 0 else {
      throw UsageError("cannot write \(path): \(String(cString: strerror(errno))) (\(directory))")
    }
  }

  /// Where a report for `path` goes: through symbolic links (even to a file not there yet) to
  /// their target, which is replaced; the link stays.
  static func destination(of path: String) -> String {
    var current = path
    for _ in 0..<16 {
      guard let link = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else { break }
      current = link.hasPrefix("/")
        ? link : URL(fileURLWithPath: current).deletingLastPathComponent().appendingPathComponent(link).path
    }
    return current
  }

  package static func write(_ text: String, to path: String) throws(UsageError) {
    let target = destination(of: path)
    let temporary = "\(target).tmp-\(getpid())"
    // A fresh file of our own: never through a link someone left at the temporary name.
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw UsageError("cannot write \(path): \(String(cString: strerror(errno)))")
    }
    let bytes = Array(text.utf8)
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
      guard count > 0 else { break }
      written += count
    }
    let complete = written == bytes.count && fsync(descriptor) == 0
    close(descriptor)
    guard complete, rename(temporary, target) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw UsageError("cannot write \(path): \(reason)")
    }
  }
}
