/// The package's test binary as a run starts it: the package built and listed, the harness
/// preloaded into it, and what the harness probe saw take effect there.
package struct TestBinary {
  package let package: TestPackage
  package let preload: String
  package let probe: HarnessProbe

  package init(package: TestPackage, preload: String, probe: HarnessProbe) {
    self.package = package
    self.preload = preload
    self.probe = probe
  }

  /// The binary of `package`, probed for the harness mechanisms of `executors`.
  package static func probed(
    _ package: TestPackage, preload: String, executors: [any IterationExecutor]
  ) throws -> TestBinary {
    let probe = try HarnessProbe.run(
      binary: package.testBinary, preload: preload, mechanisms: executors.compactMap(\.harnessMechanism))
    return TestBinary(package: package, preload: preload, probe: probe)
  }

  /// Whether `executor`'s mechanism took effect in the probe.
  package func supports(_ executor: any IterationExecutor) -> Bool {
    probe.supports(executor.harnessMechanism ?? .untouched)
  }
}
