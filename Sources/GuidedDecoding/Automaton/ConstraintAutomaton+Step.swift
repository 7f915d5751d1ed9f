/// The transition function on single stacks: how each frame reads one byte.
extension ConstraintAutomaton {
  /// Adds to `result` every stack that `stack` can become after reading `byte`.
  func step(_ stack: Int32, _ byte: UInt8, into result: inout [Int32]) {
    guard let top = stacks.top(stack) else { return }
    let rest = stacks.below(stack)
    switch top {
    case .value(let node):
      startValue(node, rest, byte, into: &result, depth: 0)

    case .literal(let node, let offset):
      guard case .literal(let bytes) = grammar.nodes[Int(node)], bytes[Int(offset)] == byte else { return }
      if Int(offset) + 1 == bytes.count {
        result.append(rest)
      } else {
        result.append(stacks.push(.literal(node, offset: offset + 1), on: rest))
      }

    case .string(let node, let cursor):
      guard case .string(let spec) = grammar.nodes[Int(node)] else { return }
      if byte == UInt8(ascii: "\""), cursor.isBetweenScalars {
        if spec.canClose(cursor, names: nil) { result.append(rest) }
        return
      }
      if let next = spec.advance(
        cursor, byte: byte, names: nil, complete: { self.stringCanComplete(node, spec, $0, $1) })
      {
        result.append(stacks.push(.string(node, next), on: rest))
      }

    case .key(let objectNode, let kind, let cursor):
      guard case .object(let object) = grammar.nodes[Int(objectNode)] else { return }
      let keyNode = object.additional[Int(kind)].key
      guard case .string(let spec) = grammar.nodes[Int(keyNode)] else { return }
      if byte == UInt8(ascii: "\""), cursor.isBetweenScalars {
        if spec.canClose(cursor, names: object.names) { result.append(rest) }
        return
      }
      if let next = spec.advance(
        cursor, byte: byte, names: object.names, complete: { self.stringCanComplete(keyNode, spec, $0, $1) })
      {
        result.append(stacks.push(.key(objectNode, kind: kind, next), on: rest))
      }

    case .number(let node, let cursor):
      guard case .number(let spec) = grammar.nodes[Int(node)] else { return }
      if let next = advanceNumber(spec, cursor, byte) {
        result.append(stacks.push(.number(node, next), on: rest))
      } else if cursor.isTerminable, !spec.tracksDigits || spec.acceptsFinal(cursor.text) {
        // A number ends only when something else begins: hand the byte to the parent.
        step(rest, byte, into: &result)
      }

    case .array(let node, let count, let matched, let afterItem):
      guard case .array(let spec) = grammar.nodes[Int(node)] else { return }
      let cap = Int32(spec.countCap)
      let matchedCap = Int32(spec.matchedCap)
      func inside(_ choice: (node: Int32, matches: Bool)) -> MatcherFrame {
        .array(
          node, count: min(count + 1, cap), matched: choice.matches ? min(matched + 1, matchedCap) : matched,
          afterItem: true)
      }
      if !afterItem {
        if byte == UInt8(ascii: "]") {
          if spec.canClose(count: 0, matched: 0) { result.append(rest) }
          return
        }
        guard (spec.maxItems ?? 1) >= 1 else { return }
        for choice in spec.elementChoices(at: 0, matched: 0) {
          startValue(choice.node, stacks.push(inside(choice), on: rest), byte, into: &result, depth: 0)
        }
      } else if byte == UInt8(ascii: ",") {
        guard spec.maxItems.map({ Int(count) < $0 }) ?? true else { return }
        for choice in spec.elementChoices(at: Int(count), matched: Int(matched)) {
          result.append(spaced(stacks.push(inside(choice), .value(choice.node), on: rest)))
        }
      } else if byte == UInt8(ascii: "]"), spec.canClose(count: Int(count), matched: Int(matched)) {
        result.append(rest)
      }

    case .object(let node, let cursor):
      guard case .object(let spec) = grammar.nodes[Int(node)] else { return }
      stepObject(node, spec, cursor, rest, byte, into: &result)
    }
  }

  private func stepObject(
    _ node: Int32, _ spec: JSONGrammar.ObjectSpec, _ cursor: ObjectCursor, _ rest: Int32,
    _ byte: UInt8, into result: inout [Int32]
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
          result.append(rest)
        }
        return
      }
      // Keys may skip optional properties but not a required one.
      let candidates = spec.keyCandidates(index: index, members: members)
      for j in candidates.declared where spec.properties[j].keyBytes[0] == byte {
        result.append(stacks.push(object(.declaredKey, j, offset: 1, members: started), on: rest))
      }
      if candidates.additional, byte == UInt8(ascii: "\"") {
        // One stack per kind; the object remembers the kind for the value after the colon.
        for (kind, additional) in spec.additional.enumerated() {
          guard case .string(let key) = grammar.nodes[Int(additional.key)] else { continue }
          result.append(
            stacks.push(
              object(.additionalColon, count + kind, members: started),
              .key(node, kind: Int32(kind), key.initialCursor(nameNode: NameTrie.root)), on: rest))
        }
      }
    case .declaredKey:
      let property = spec.properties[index]
      let offset = Int(cursor.offset)
      guard property.keyBytes[offset] == byte else { return }
      if offset + 1 == property.keyBytes.count {
        result.append(
          stacks.push(object(.afterValue, index + 1, members: cursor.members), .value(property.node), on: rest))
      } else {
        result.append(stacks.push(object(.declaredKey, index, offset: offset + 1, members: cursor.members), on: rest))
      }
    case .additionalColon:
      guard byte == UInt8(ascii: ":"), spec.additional.indices.contains(index - count) else { return }
      let value = spec.additional[index - count].value
      result.append(spaced(stacks.push(object(.afterValue, count, members: cursor.members), .value(value), on: rest)))
    case .afterValue:
      if byte == UInt8(ascii: ",") {
        let next = spec.keyCandidates(index: index, members: members)
        if !next.declared.isEmpty || next.additional {
          result.append(spaced(stacks.push(object(.afterComma, index, members: cursor.members), on: rest)))
        }
      } else if byte == UInt8(ascii: "}"), spec.firstRequired[index] == count, members >= spec.minProperties {
        result.append(rest)
      }
    }
  }

  /// `stack` after a separator (`:` or `,`): with the space that follows it first, where the
  /// grammar writes one.
  private func spaced(_ stack: Int32) -> Int32 {
    guard let space = grammar.separatorSpace else { return stack }
    return stacks.push(.literal(space, offset: 0), on: stack)
  }

  /// Starts a value of `node` with its first byte.
  private func startValue(_ node: Int32, _ rest: Int32, _ byte: UInt8, into result: inout [Int32], depth: Int) {
    // Why: a chain of references that consumes nothing could otherwise recurse forever.
    guard depth < 64 else { return }
    switch grammar.nodes[Int(node)] {
    case .choice(let options):
      for o in options { startValue(o, rest, byte, into: &result, depth: depth + 1) }
    case .literal(let bytes):
      guard bytes.first == byte else { return }
      result.append(bytes.count == 1 ? rest : stacks.push(.literal(node, offset: 1), on: rest))
    case .string(let spec):
      if byte == UInt8(ascii: "\"") { result.append(stacks.push(.string(node, spec.initialCursor()), on: rest)) }
    case .number(let spec):
      if let cursor = advanceNumber(spec, NumberCursor(), byte) {
        result.append(stacks.push(.number(node, cursor), on: rest))
      }
    case .array:
      if byte == UInt8(ascii: "[") {
        result.append(stacks.push(.array(node, count: 0, matched: 0, afterItem: false), on: rest))
      }
    case .object:
      if byte == UInt8(ascii: "{") {
        result.append(stacks.push(.object(node, ObjectCursor(phase: .open, index: 0)), on: rest))
      }
    }
  }

  /// Reads one byte of a number; `nil` when the byte cannot continue it.
  func advanceNumber(_ spec: JSONGrammar.NumberSpec, _ cursor: NumberCursor, _ byte: UInt8) -> NumberCursor? {
    let isDigit = byte >= 48 && byte <= 57
    let allowsExponent = !spec.isInteger && !spec.tracksDigits
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
    guard spec.tracksDigits else { return c }
    c.text.append(byte)
    return spec.prefixIsFeasible(c.text) ? c : nil
  }
}
