/// The transition function on single stacks: how each frame reads one byte.
extension ConstraintAutomaton {
  /// Adds to `result` every stack that `stack` can become after reading `byte`.
  func step(_ stack: [MatcherFrame], _ byte: UInt8, into result: inout [[MatcherFrame]]) {
    guard let top = stack.last else { return }
    // A slice, not a copy: most bytes are rejected, and then nothing needs allocating.
    let rest = stack.dropLast()
    switch top {
    case .value(let node):
      startValue(node, rest, byte, into: &result, depth: 0)

    case .literal(let node, let offset):
      guard case .literal(let bytes) = grammar.nodes[Int(node)], bytes[Int(offset)] == byte else { return }
      if Int(offset) + 1 == bytes.count {
        result.append(Array(rest))
      } else {
        result.append(Array(rest) + [.literal(node, offset: offset + 1)])
      }

    case .string(let node, let cursor):
      guard case .string(let spec) = grammar.nodes[Int(node)] else { return }
      if byte == UInt8(ascii: "\""), cursor.isBetweenScalars {
        if spec.canClose(cursor, names: nil) { result.append(Array(rest)) }
        return
      }
      if let next = spec.advance(
        cursor, byte: byte, names: nil, complete: { self.stringCanComplete(node, spec, $0, $1) })
      {
        result.append(Array(rest) + [.string(node, next)])
      }

    case .key(let objectNode, let cursor):
      guard case .object(let object) = grammar.nodes[Int(objectNode)] else { return }
      let spec = JSONGrammar.StringSpec.unconstrained
      if byte == UInt8(ascii: "\""), cursor.isBetweenScalars {
        if spec.canClose(cursor, names: object.names) { result.append(Array(rest)) }
        return
      }
      if let next = spec.advance(cursor, byte: byte, names: object.names, complete: { _, _ in true }) {
        result.append(Array(rest) + [.key(objectNode, next)])
      }

    case .number(let node, let cursor):
      guard case .number(let spec) = grammar.nodes[Int(node)] else { return }
      if let next = advanceNumber(spec, cursor, byte) {
        result.append(Array(rest) + [.number(node, next)])
      } else if cursor.isTerminable, !spec.isBounded || spec.acceptsFinal(cursor.text) {
        // A number ends only when something else begins: hand the byte to the parent.
        step(Array(rest), byte, into: &result)
      }

    case .array(let node, let count, let afterItem):
      guard case .array(let spec) = grammar.nodes[Int(node)] else { return }
      let cap = Int32(spec.countCap)
      if !afterItem {
        if byte == UInt8(ascii: "]") {
          if spec.minItems == 0 { result.append(Array(rest)) }
          return
        }
        guard (spec.maxItems ?? 1) >= 1, let item = spec.item(at: 0) else { return }
        startValue(item, rest + [.array(node, count: min(1, cap), afterItem: true)], byte, into: &result, depth: 0)
      } else if byte == UInt8(ascii: ",") {
        guard spec.maxItems.map({ Int(count) < $0 }) ?? true, let item = spec.item(at: Int(count)) else { return }
        result.append(Array(rest) + [.array(node, count: min(count + 1, cap), afterItem: true), .value(item)])
      } else if byte == UInt8(ascii: "]"), Int(count) >= spec.minItems {
        result.append(Array(rest))
      }

    case .object(let node, let cursor):
      guard case .object(let spec) = grammar.nodes[Int(node)] else { return }
      stepObject(node, spec, cursor, rest, byte, into: &result)
    }
  }

  private func stepObject(
    _ node: Int32, _ spec: JSONGrammar.ObjectSpec, _ cursor: ObjectCursor, _ rest: ArraySlice<MatcherFrame>,
    _ byte: UInt8, into result: inout [[MatcherFrame]]
  ) {
    let count = spec.properties.count
    let index = Int(cursor.index)
    let members = Int(cursor.members)
    // The member count is carried only where the object bounds it.
    let started = spec.countsMembers ? cursor.members + 1 : 0
    func object(_ phase: ObjectCursor.Phase, _ index: Int, offset: Int = 0, members: Int32) -> MatcherFrame {
      .object(node, ObjectCursor(phase: phase, index: Int32(index), offset: Int32(offset), members: members))
    }
    switch cursor.phase {
    case .open, .afterComma:
      if byte == UInt8(ascii: "}") {
        if cursor.phase == .open, spec.firstRequired[index] == count, members >= spec.minProperties {
          result.append(Array(rest))
        }
        return
      }
      // Keys may skip optional properties but not a required one.
      let candidates = spec.keyCandidates(index: index, members: members)
      for j in candidates.declared where spec.properties[j].keyBytes[0] == byte {
        result.append(Array(rest) + [object(.declaredKey, j, offset: 1, members: started)])
      }
      if candidates.additional, byte == UInt8(ascii: "\"") {
        result.append(
          rest + [
            object(.additionalColon, count, members: started),
            .key(node, JSONGrammar.StringSpec.unconstrained.initialCursor(nameNode: NameTrie.root)),
          ])
      }
    case .declaredKey:
      let property = spec.properties[index]
      let offset = Int(cursor.offset)
      guard property.keyBytes[offset] == byte else { return }
      if offset + 1 == property.keyBytes.count {
        result.append(Array(rest) + [object(.afterValue, index + 1, members: cursor.members), .value(property.node)])
      } else {
        result.append(Array(rest) + [object(.declaredKey, index, offset: offset + 1, members: cursor.members)])
      }
    case .additionalColon:
      guard byte == UInt8(ascii: ":"), let additional = spec.additional else { return }
      result.append(Array(rest) + [object(.afterValue, count, members: cursor.members), .value(additional)])
    case .afterValue:
      if byte == UInt8(ascii: ",") {
        let next = spec.keyCandidates(index: index, members: members)
        if !next.declared.isEmpty || next.additional {
          result.append(Array(rest) + [object(.afterComma, index, members: cursor.members)])
        }
      } else if byte == UInt8(ascii: "}"), spec.firstRequired[index] == count, members >= spec.minProperties {
        result.append(Array(rest))
      }
    }
  }

  /// Starts a value of `node` with its first byte.
  private func startValue(
    _ node: Int32, _ rest: ArraySlice<MatcherFrame>, _ byte: UInt8, into result: inout [[MatcherFrame]], depth: Int
  ) {
    // Why: a chain of references that consumes nothing could otherwise recurse forever.
    guard depth < 64 else { return }
    switch grammar.nodes[Int(node)] {
    case .choice(let options):
      for o in options { startValue(o, rest, byte, into: &result, depth: depth + 1) }
    case .literal(let bytes):
      guard bytes.first == byte else { return }
      result.append(bytes.count == 1 ? Array(rest) : Array(rest) + [.literal(node, offset: 1)])
    case .string(let spec):
      if byte == UInt8(ascii: "\"") { result.append(Array(rest) + [.string(node, spec.initialCursor())]) }
    case .number(let spec):
      if let cursor = advanceNumber(spec, NumberCursor(), byte) { result.append(Array(rest) + [.number(node, cursor)]) }
    case .array:
      if byte == UInt8(ascii: "[") { result.append(Array(rest) + [.array(node, count: 0, afterItem: false)]) }
    case .object:
      if byte == UInt8(ascii: "{") {
        result.append(Array(rest) + [.object(node, ObjectCursor(phase: .open, index: 0))])
      }
    }
  }

  /// Reads one byte of a number; `nil` when the byte cannot continue it.
  func advanceNumber(_ spec: JSONGrammar.NumberSpec, _ cursor: NumberCursor, _ byte: UInt8) -> NumberCursor? {
    let isDigit = byte >= 48 && byte <= 57
    let allowsExponent = !spec.isInteger && !spec.isBounded
    var c = cursor
    switch (cursor.phase, byte) {
    case (.start, UInt8(ascii: "-")): c.phase = .minus
    case (.start, UInt8(ascii: "0")), (.minus, UInt8(ascii: "0")): c.phase = .zero
    case (.start, _) where isDigit, (.minus, _) where isDigit: c.phase = .integerDigits
    case (.integerDigits, _) where isDigit: c.phase = .integerDigits
    case (.zero, UInt8(ascii: ".")), (.integerDigits, UInt8(ascii: ".")):
      guard !spec.isInteger else { return nil }
      c.phase = .dot
    case (.dot, _) where isDigit, (.fractionDigits, _) where isDigit: c.phase = .fractionDigits
    case (.zero, UInt8(ascii: "e")), (.zero, UInt8(ascii: "E")), (.integerDigits, UInt8(ascii: "e")),
      (.integerDigits, UInt8(ascii: "E")), (.fractionDigits, UInt8(ascii: "e")), (.fractionDigits, UInt8(ascii: "E")):
      guard allowsExponent else { return nil }
      c.phase = .exponentMark
    case (.exponentMark, UInt8(ascii: "+")), (.exponentMark, UInt8(ascii: "-")): c.phase = .exponentSign
    case (.exponentMark, _) where isDigit, (.exponentSign, _) where isDigit, (.exponentDigits, _) where isDigit:
      guard c.exponentLength < 3 else { return nil }
      c.exponentLength += 1
      c.phase = .exponentDigits
    default: return nil
    }
    guard spec.isBounded else { return c }
    c.text.append(byte)
    return spec.prefixIsFeasible(c.text) ? c : nil
  }
}
