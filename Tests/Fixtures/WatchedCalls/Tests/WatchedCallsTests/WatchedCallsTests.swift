import Dispatch
import Foundation
import XCTest

/// Times each call the harness defines, 2,000 at a time, and appends `call nanoseconds-per-call`
/// lines (the median of seven rounds), and `call.first nanoseconds` for the first call of each,
/// to the file `WATCHED_CALLS_OUT` names. A sleep's timer slack, 50 µs by default, would hide a
/// microsecond: this thread's is set to a nanosecond.
final class WatchedCallsTests: XCTestCase {
  func testEachWatchedCallReturningAtOnce() throws {
    guard let out = ProcessInfo.processInfo.environment["WATCHED_CALLS_OUT"] else { return }
    // prctl(PR_SET_TIMERSLACK, 1): variadic in C, so called through its address.
    typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
    if let prctl = dlsym(dlopen(nil, RTLD_NOW), "prctl") { _ = unsafeBitCast(prctl, to: Prctl.self)(29, 1, 0, 0, 0) }
    var lines: [String] = []
    func nanoseconds(_ elapsed: Duration) -> Double {
      Double(elapsed.components.attoseconds) / 1e9 + Double(elapsed.components.seconds) * 1e9
    }
    func time(_ name: String, _ call: () -> Void) {
      // The iteration's first call of each, which the watch tells on one queue: a stack and an event.
      let first = ContinuousClock.now
      call()
      lines.append("\(name).first \(nanoseconds(ContinuousClock.now - first))")
      var rounds: [Double] = []
      for _ in 0..<7 {
        let start = ContinuousClock.now
        for _ in 0..<2_000 { call() }
        let elapsed = ContinuousClock.now - start
        rounds.append(nanoseconds(elapsed) / 2_000)
      }
      lines.append("\(name) \(rounds.sorted()[3])")
    }
    var zero = timespec(tv_sec: 0, tv_nsec: 0)
    time("usleep") { usleep(0) }
    time("nanosleep") { nanosleep(&zero, nil) }
    time("clock_nanosleep") { clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &zero, nil) }
    let semaphore = DispatchSemaphore(value: 0)
    time("DispatchSemaphore.wait") {
      semaphore.signal()
      semaphore.wait()
    }
    let group = DispatchGroup()
    time("DispatchGroup.wait") { group.wait() }
    var mutex = pthread_mutex_t()
    var condition = pthread_cond_t()
    pthread_mutex_init(&mutex, nil)
    pthread_cond_init(&condition, nil)
    time("pthread_cond_timedwait") {
      pthread_mutex_lock(&mutex)
      pthread_cond_timedwait(&condition, &mutex, &zero)
      pthread_mutex_unlock(&mutex)
    }
    var posix = sem_t()
    sem_init(&posix, 0, 0)
    time("sem_wait") {
      sem_post(&posix)
      sem_wait(&posix)
    }
    let nsCondition = NSCondition()
    let past = Date(timeIntervalSince1970: 0)
    time("NSCondition.wait") {
      nsCondition.lock()
      _ = nsCondition.wait(until: past)
      nsCondition.unlock()
    }
    // A stop of the main run loop while it is not running, which the harness follows with a
    // block on the main queue in the lab (`DroppedStopRescue`): run at the loop's next turn.
    time("CFRunLoopStop") { RunLoop.main._stop() }
    // The seeded ones: in a plain run, the kernel's randomness and Foundation's `/dev/urandom`.
    time("Int.random") { _ = Int.random(in: 0..<10) }
    time("UUID()") { _ = UUID() }
    let handle = try XCTUnwrap(FileHandle(forWritingAtPath: out))
    handle.seekToEndOfFile()
    handle.write(Data((lines.joined(separator: "\n") + "\n").utf8))
  }
}
