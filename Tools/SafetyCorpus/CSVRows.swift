/// The rows of a CSV text (RFC 4180: quoted fields may hold commas, doubled quotes and line
/// breaks), each a dictionary from the header's names to the row's fields; a byte-order mark
/// and blank lines are skipped.
enum CSVRows {
  /// - Throws: ``SafetyCorpus/LoadError`` when a row has another number of fields than the header.
  static func parse(_ text: String, file: String) throws -> [[String: String]] {
    let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
    var records: [[String]] = []
    var record: [String] = []
    var field = ""
    var quoted = false
    var characters = text.makeIterator()
    var pending: Character? = nil
    while let character = pending ?? characters.next() {
      pending = nil
      if quoted {
        if character == "\"" {
          let next = characters.next()
          if next == "\"" { field.append("\"") } else { quoted = false; pending = next }
        } else {
          field.append(character)
        }
        continue
      }
      switch character {
      case "\"" where field.isEmpty: quoted = true
      case ",":
        record.append(field)
        field = ""
      case "\n", "\r\n", "\r":
        record.append(field)
        if record != [""] { records.append(record) }
        (record, field) = ([], "")
      default: field.append(character)
      }
    }
    if !field.isEmpty || !record.isEmpty {
      record.append(field)
      records.append(record)
    }
    guard let header = records.first else { return [] }
    return try records.dropFirst().enumerated().map { index, fields in
      guard fields.count == header.count else {
        throw SafetyCorpus.LoadError(
          description: "\(file): row \(index + 1) has \(fields.count) fields, the header \(header.count)")
      }
      return Dictionary(zip(header, fields), uniquingKeysWith: { first, _ in first })
    }
  }
}
