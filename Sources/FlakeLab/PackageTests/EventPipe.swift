import Foundation

/// The pipe a test process writes its events into: the worker's end, handed to the process at
/// its start and then released by the supervisor, and the supervisor's end, read line by line as
/// the events arrive. Both event feeds read through one.
final class EventPipe {
  let workerEnd: Int32
  private var reader: LineReader
  private var workerEndIsOpen = true

  init() throws {
    // A larger pipe lets the test run on while the supervisor sleeps between polls.
    let pipe = try PipeEnds(capacity: 1 << 20)
    pipe.makeReadEndNonBlocking()
    reader = LineReader(descriptor: pipe.readEnd)
    workerEnd = pipe.writeEnd
  }

  deinit {
    releaseWorkerEnd()
    close(reader.descriptor)
  }

  func releaseWorkerEnd() {
    if workerEndIsOpen { close(workerEnd) }
    workerEndIsOpen = false
  }

  /// Hands on each complete line written so far.
  func read(_ line: (ArraySlice<UInt8>) -> Void) {
    reader.read(line: line)
  }
}
