import FlakeLab

/// Sees a Swift Testing test turn the serial executor off, inside the test process.
///
/// Under `serial` every global job goes to the main actor through the runtime's global-enqueue
/// hook. A test can clear that hook (swift-concurrency-extras' `uncheckedUseMainSerialExecutor
/// = false` does), and its later jobs then run on the global executor while the run is still
/// called serial. The watch relays the event stream from a thread of its own
/// (``EventStreamRelay``); before the end of an iteration goes on, it looks at the hook, and
/// when the hook is gone it first says so (`executorChanged`). The hook stays off for the rest
/// of the process, as the test left it, so every later iteration is reported the same way:
/// none is counted as serial.
enum SerialHookWatch {
  /// Starts watching; does nothing if the relay cannot be had (events then go straight to the
  /// supervisor, unwatched). The line is not decoded: the process runs only the lab's test, and
  /// the supervisor counts a finding only inside one of its iterations.
  static func start(channel: Int32) {
    EventStreamRelay.threaded(channel: channel) { line in
      GlobalEnqueueHook.current == nil && LineReader.line(line, contains: marker) ? .executorChanged : nil
    }
  }

  private static let marker = Array("\"testEnded\"".utf8)
}
