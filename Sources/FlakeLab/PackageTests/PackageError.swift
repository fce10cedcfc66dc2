/// Why `flakelab test` cannot measure a package, with what a message needs; the command line
/// words it.
package enum PackageError: Error, Equatable {
  case noDirectory(path: String)
  case noManifest(path: String)
  /// `swift package dump-package` failed or printed no name.
  case unreadableManifest(path: String, status: Int32)
  /// The build failed: the compiler's located errors, and the build's exit status.
  case doesNotBuild(path: String, status: Int32, compilerLines: [String])
  /// No `<name>PackageTests.xctest` in `binPath`; `others` are test binaries of other names.
  case noTestBinary(name: String, path: String, binPath: String, others: [String], skippedBuild: Bool)
  case listingTimedOut(binary: String, framework: PackageTest.Framework, limit: Duration)
  case notATestBinary(binary: String, listingStatus: Int32)
  case probeTimedOut(binary: String, limit: Duration)
  /// `libFlakeLabPreload.so` is neither beside the executable nor in `../lib/flakelab`.
  case noHarnessLibrary(directory: String)
}
