/// Text as XML carries it, for the JUnit report and the HTML page alike.
package enum XMLText {
  /// Text safe in XML attributes (line breaks as `&#10;`, or they would read as spaces) and
  /// elements (line breaks kept); each character XML 1.0 forbids (controls, U+FFFE, U+FFFF)
  /// becomes U+FFFD, so that a strict parser reads every file and a reader sees something was
  /// there.
  package static func escaped(_ text: String, inAttribute: Bool = true) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      case "\n": out += inAttribute ? "&#10;" : "\n"
      case "\t", "\r": out += "&#\(scalar.value);"
      case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: out += "\u{FFFD}"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
