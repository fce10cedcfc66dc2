import Foundation

/// A file the lab reads whole: a quarantine, a report for `merge` or `--baseline`, a file for
/// `history import`. These come from repositories and CI artifacts, so a file is taken only in a
/// shape that ends: a regular file, or a pipe or device the user named on the command line
/// (`/dev/stdin`, `<(…)`, `/dev/null`), and never more than ``maximumBytes`` of it.
///
/// A file the lab found by itself in a package (its default quarantine) must be a regular file:
/// a FIFO committed there would otherwise hold `flakelab ci` for ever, waiting for a writer.
package enum InputFile {
  /// Where the path came from.
  package enum Origin: Sendable {
    /// Typed by the user: a pipe or a device is what they meant.
    case named
    /// The lab's default place in a package, which a pull request can fill with anything.
    case found
  }

  /// More than any real quarantine, report or JUnit file: `/dev/zero` stops here, not when
  /// memory runs out.
  package static let maximumBytes = 256 << 20

  /// The whole of the file at `path`.
  package static func read(_ path: String, origin: Origin, limit: Int = maximumBytes) throws(InputFileError) -> [UInt8]
  {
    // Not blocking to open: a FIFO found in a package is refused below instead of waited on.
    let flags = O_RDONLY | O_CLOEXEC | (origin == .found ? O_NONBLOCK : 0)
    let descriptor = open(path, flags)
    guard descriptor >= 0 else {
      throw InputFileError(path: path, problem: errno == ENOENT ? .missing : .cannotOpen(errno: errno))
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw InputFileError(path: path, problem: .cannotOpen(errno: errno)) }
    switch status.st_mode & S_IFMT {
    case S_IFREG: break
    case S_IFDIR: throw InputFileError(path: path, problem: .directory)
    case S_IFIFO where origin == .named, S_IFCHR where origin == .named: break
    default: throw InputFileError(path: path, problem: .notARegularFile)
    }
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
    return try readAll(descriptor, path: path, limit: limit)
  }

  private static func readAll(_ descriptor: Int32, path: String, limit: Int) throws(InputFileError) -> [UInt8] {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = Foundation.read(descriptor, &buffer, buffer.count)
      if count < 0, errno == EINTR { continue }
      guard count >= 0 else { throw InputFileError(path: path, problem: .cannotOpen(errno: errno)) }
      if count == 0 { return bytes }
      guard bytes.count + count <= limit else { throw InputFileError(path: path, problem: .tooLarge(limit: limit)) }
      bytes += buffer[..<count]
    }
  }
}

/// A file ``InputFile`` does not read, and why.
package struct InputFileError: Error, Equatable {
  package enum Problem: Equatable {
    case missing
    case cannotOpen(errno: Int32)
    case directory
    /// A FIFO, socket or device the lab found by itself, or a socket named.
    case notARegularFile
    case tooLarge(limit: Int)
  }

  package let path: String
  package let problem: Problem

  package init(path: String, problem: Problem) {
    self.path = path
    self.problem = problem
  }
}
