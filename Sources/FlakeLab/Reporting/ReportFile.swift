import Foundation

/// Report files: written so that readers only ever see a complete file (the text goes to a
/// temporary file beside the target, is flushed to disk, and is renamed over the target), and
/// read back for `merge` and `--baseline`.
public enum ReportFile {
  public static func read(_ path: String) throws(UsageError) -> Report {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw UsageError("cannot read \(path)")
    }
    return try JSONReportReader.read(data, name: path)
  }

  public static func write(_ text: String, to path: String) throws(UsageError) {
    let temporary = "\(path).tmp-\(getpid())"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
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
    guard complete, rename(temporary, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw UsageError("cannot write \(path): \(reason)")
    }
  }
}
