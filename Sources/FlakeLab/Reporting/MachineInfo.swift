import Foundation

/// The facts about this machine that a failure rate under the global executor depends on.
///
/// Races need threads running at once, so the same scenario fails at different rates on machines
/// with different core counts or load. Every report carries these so a rate is never read alone.
package struct MachineInfo: Equatable, Sendable {
  package var cores: Int
  package var os: String
  package var swift: String

  package init(cores: Int, os: String, swift: String) {
    self.cores = cores
    self.os = os
    self.swift = swift
  }

  /// The line every text answer starts with: the lab's version and this machine, the facts a
  /// rate under global is read with (`flakelab 0.1.0 · 2 cores · Linux … · Swift 6.3`).
  package var line: String {
    "flakelab \(Report.labVersion) · \(cores) cores · \(os) · Swift \(swift)"
  }

  /// This machine, now.
  package static var current: MachineInfo {
    MachineInfo(
      cores: ProcessInfo.processInfo.activeProcessorCount,
      os: operatingSystem,
      swift: swiftVersion)
  }

  private static var operatingSystem: String {
    var system = utsname()
    uname(&system)
    func text<T>(_ field: T) -> String {
      withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
    return "\(text(system.sysname)) \(text(system.release)) \(text(system.machine))"
  }

  /// The language version this lab was compiled with; the runtime does not report its own.
  private static var swiftVersion: String {
    #if compiler(>=6.5)
      "6.5 or later"
    #elseif compiler(>=6.4)
      "6.4"
    #elseif compiler(>=6.3)
      "6.3"
    #else
      "6.2"
    #endif
  }
}
