import Foundation

/// The package's tests built once more with the thread sanitizer (`swift build --build-tests
/// --sanitize=thread`), in a scratch path of the lab's own: the user's `.build` is untouched, and
/// SwiftPM's own incremental build reuses the last sanitized build while the sources are the same.
package struct SanitizedBuild: Sendable {
  /// The sanitized test binary.
  package let binary: String
  /// How long the build took (seconds when nothing changed, a full build the first time).
  package let took: Duration

  /// Why a package has no sanitized build: one line, and the answer goes on without races.
  package struct Unavailable: Error, Sendable, Equatable {
    package let reason: String
  }

  /// Where the lab keeps the sanitized build of the package at `path`: under the user's cache
  /// (`$XDG_CACHE_HOME`, else `~/.cache`), one folder per package directory.
  package static func scratchPath(of path: String, environment: [String: String]) -> String {
    let absolute = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    let cache =
      environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
      ?? (environment["HOME"] ?? NSTemporaryDirectory()) + "/.cache"
    // FNV-1a of the path: a stable name, the same in every run.
    let hash = absolute.utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    let name = URL(fileURLWithPath: absolute).lastPathComponent
    return "\(cache)/flakelab/sanitized/\(name)-\(String(hash, radix: 16))"
  }

  /// Builds `package`'s tests sanitized; the test binary of the same name as the plain one.
  ///
  /// - Parameter environment: the lab's, whose cache directory holds the build.
  /// - Throws: ``Unavailable`` where the package does not build with the sanitizer (a C target
  ///   it does not take, a linker, a platform without it); ``LabInterrupted`` on Ctrl-C.
  package static func build(
    _ package: TestPackage, environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> SanitizedBuild {
    let clock = ContinuousClock()
    let start = clock.now
    let scratch = scratchPath(of: package.path, environment: environment)
    let build = try TestPackage.usingSwiftPM(at: package.path, environment: environment) { swift in
      try swift(["build", "--build-tests", "--sanitize=thread", "--scratch-path", scratch])
    }
    guard build.status == 0 else {
      let why = TestPackage.compilerErrors(in: build.output + build.errorOutput).first ?? "status \(build.status)"
      throw Unavailable(reason: "the package does not build with the thread sanitizer: \(why)")
    }
    let binary = "\(scratch)/debug/" + URL(fileURLWithPath: package.testBinary).lastPathComponent
    guard FileManager.default.isExecutableFile(atPath: binary) else {
      throw Unavailable(reason: "the sanitized build has no test binary at \(binary)")
    }
    return SanitizedBuild(binary: binary, took: clock.now - start)
  }
}
