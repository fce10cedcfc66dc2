/// An outcome histogram as people read it: failures whose messages differ only in numbers
/// (`expected 3, got 4`, `expected 3, got 17`) are one row, each number that varies given as its
/// range (`expected 3, got 4–17`), not a row per value. The JSON report keeps every outcome apart.
package enum OutcomeGroups {
  /// One row: what it says, and how many iterations came to it.
  package struct Row: Equatable, Sendable {
    package let text: String
    package let count: Int
    /// Whether it is the passes' row.
    package let isPassed: Bool
  }

  /// `histogram`'s rows (most frequent first), failures that differ only in numbers as one.
  package static func rows(_ histogram: [(outcome: Outcome, count: Int)]) -> [Row] {
    var groups: [(key: [Part], members: [(parts: [Part], count: Int)], row: Row?)] = []
    var index: [[Part]: Int] = [:]
    for (outcome, count) in histogram {
      guard case .failed(let observation) = outcome else {
        groups.append(([], [], Row(text: OutcomeText.describe(outcome), count: count, isPassed: outcome == .passed)))
        continue
      }
      let parts = Part.split(observation)
      let key = parts.map(\.shape)
      if let at = index[key] {
        groups[at].members.append((parts, count))
      } else {
        index[key] = groups.count
        groups.append((key, [(parts, count)], nil))
      }
    }
    let rows = groups.map { group in
      let count = group.members.reduce(0) { $0 + $1.count }
      return group.row ?? Row(text: merged(group.members.map(\.parts)), count: count, isPassed: false)
    }
    return rows.enumerated().sorted { ($0.element.count, -$0.offset) > ($1.element.count, -$1.offset) }.map(\.element)
  }

  /// The members' text, each number that differs between them given as `least–most`.
  private static func merged(_ members: [[Part]]) -> String {
    guard let first = members.first else { return "" }
    guard members.count > 1 else { return first.map(\.text).joined() }
    return first.indices.map { slot in
      guard case .number = first[slot] else { return first[slot].text }
      let values = members.map { $0[slot] }
      let numbers = values.compactMap(\.value)
      guard Set(values.map(\.text)).count > 1, let least = numbers.min(), let most = numbers.max() else {
        return first[slot].text
      }
      let text = { (value: Double) in values.first { $0.value == value }?.text ?? "" }
      return text(least) + "–" + text(most)
    }.joined()
  }

  /// A message cut into numbers and the text between them.
  private enum Part: Hashable {
    case text(String)
    case number(String)

    var text: String {
      switch self {
      case .text(let text), .number(let text): text
      }
    }

    var value: Double? {
      if case .number(let text) = self { Double(text) } else { nil }
    }

    /// What groups two messages: the text between the numbers, each number as a blank.
    var shape: Part { if case .number = self { .number("") } else { self } }

    /// `got 4.5 of 17` → `got `, `4.5`, ` of `, `17`.
    static func split(_ message: String) -> [Part] {
      var parts: [Part] = []
      var current = ""
      var inNumber = false
      let characters = Array(message)
      for (offset, character) in characters.enumerated() {
        let isDigit = character.isASCII && character.isNumber
        let isPoint =
          character == "." && inNumber && offset + 1 < characters.count && characters[offset + 1].isASCII
          && characters[offset + 1].isNumber
        if (isDigit || isPoint) != inNumber {
          if !current.isEmpty { parts.append(inNumber ? .number(current) : .text(current)) }
          current = ""
          inNumber = isDigit || isPoint
        }
        current.append(character)
      }
      if !current.isEmpty { parts.append(inNumber ? .number(current) : .text(current)) }
      return parts
    }
  }
}
