/// A greeting, the whole of this package's code.
public func greeting(for name: String) -> String {
  "Hello, \(name)!"
}
