import FlakeLab
import Foundation

/// Where the lab's programs are: this executable, and the worker executable its scenario runs
/// start, beside it (a build tree) or in `../lib/flakelab/` (an install), where the harness is
/// found too (``TestLaunch/preloadLibrary(besides:)``).
enum LabExecutables {
  /// This executable: the harness and the worker executable are found beside it, and `replay`
  /// and `explore` run again as its child.
  static var current: String {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
  }

  /// The executable the lab's workers run as: the lab's worker executable
  /// (``LabExtensions/workerExecutable``) when it is beside this one or in `../lib/flakelab/`;
  /// else this one.
  static var worker: String {
    guard let name = LabExtensions.current.workerExecutable else { return current }
    let directory = URL(fileURLWithPath: current).deletingLastPathComponent()
    let places = [directory.appendingPathComponent(name), directory.appendingPathComponent("../lib/flakelab/\(name)")]
    return places.map(\.standardizedFileURL.path).first(where: FileManager.default.isExecutableFile(atPath:)) ?? current
  }
}
