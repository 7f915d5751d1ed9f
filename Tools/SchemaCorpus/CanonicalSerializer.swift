import GuidedDecoding
import JSON

/// Writes a JSON value the way the constraint generates it for a schema: compact, declared
/// properties first in declaration order, then any additional members in their original
/// order, numbers and strings in canonical form.
///
/// Where the schema leaves the layout open (`anyOf` branches that order keys differently)
/// there can be several such spellings; `serializations` returns each (up to a limit).
/// The corpus checks (maskbench, the corpus sample test) use it to turn labelled instances
/// into the text our generator would emit.
public struct CanonicalSerializer: Sendable {
  public let document: SchemaDocument

  public init(document: SchemaDocument) {
    self.document = document
  }

  /// The spellings of `value` under the document's root schema (at least one).
  public func serializations(of value: JSONValue, limit: Int = 16) -> [[UInt8]] {
    let result = spellings(value, document.root, depth: 0, limit: limit)
    return result.isEmpty ? [generic(value)] : result
  }

  private func generic(_ value: JSONValue) -> [UInt8] {
    var out: [UInt8] = []
    value.appendCompact(to: &out)
    return out
  }

  private func spellings(_ value: JSONValue, _ node: SchemaNode, depth: Int, limit: Int) -> [[UInt8]] {
    guard depth < 64 else { return [generic(value)] }
    switch (node, value) {
    case (.ref(let name), _):
      guard let target = document.definitions[name] else { return [generic(value)] }
      return spellings(value, target, depth: depth + 1, limit: limit)
    case (.anyOf(let branches), _):
      var result: [[UInt8]] = []
      for b in branches {
        for s in spellings(value, b, depth: depth + 1, limit: limit) where !result.contains(s) {
          result.append(s)
          if result.count >= limit { return result }
        }
      }
      return result
    case (.const(let c), _) where c.isJSONEqual(to: value):
      return [generic(c)]
    case (.integer, .number(let n)) where n.isFloatLiteral && document.floatLiteralsAreNotIntegers:
      // Keep the fraction visible: under draft 4 this literal is not an integer.
      return [Array((n.jsonText + (n.isInteger ? ".0" : "")).utf8)]
    case (.array(let spec), .array(let elements)):
      var result: [[UInt8]] = [[UInt8(ascii: "[")]]
      for (i, e) in elements.enumerated() {
        let schema = (i < spec.prefixItems.count ? spec.prefixItems[i] : spec.items) ?? .any
        result = combine(
          result, spellings(e, schema, depth: depth + 1, limit: limit), separator: i > 0 ? [UInt8(ascii: ",")] : [],
          limit: limit)
      }
      return result.map { $0 + [UInt8(ascii: "]")] }
    case (.object(let spec), .object(let members)):
      var ordered: [(JSONValue.Member, SchemaNode)] = []
      for p in spec.properties {
        if let m = members.first(where: { $0.key.hasSameScalars(as: p.name) }) { ordered.append((m, p.schema)) }
      }
      for m in members where !spec.properties.contains(where: { $0.name.hasSameScalars(as: m.key) }) {
        ordered.append((m, spec.additionalProperties ?? .any))
      }
      var result: [[UInt8]] = [[UInt8(ascii: "{")]]
      for (i, (member, schema)) in ordered.enumerated() {
        var key: [UInt8] = i > 0 ? [UInt8(ascii: ",")] : []
        JSONValue.appendJSONString(member.key, to: &key)
        key.append(UInt8(ascii: ":"))
        result = combine(
          result, spellings(member.value, schema, depth: depth + 1, limit: limit), separator: key, limit: limit)
      }
      return result.map { $0 + [UInt8(ascii: "}")] }
    default:
      return [generic(value)]
    }
  }

  private func combine(_ heads: [[UInt8]], _ tails: [[UInt8]], separator: [UInt8], limit: Int) -> [[UInt8]] {
    var result: [[UInt8]] = []
    for h in heads {
      for t in tails {
        result.append(h + separator + t)
        if result.count >= limit { return result }
      }
    }
    return result
  }
}
