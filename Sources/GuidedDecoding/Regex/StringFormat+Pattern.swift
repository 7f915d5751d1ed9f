extension StringFormat {
  /// The pattern that enforces the format, after the specification each names (the JSON Schema
  /// test suite's `optional/format` cases are the check; see `docs/SCHEMAS.md` for the few
  /// departures).
  ///
  /// - `date`, `time`, `date-time`: RFC 3339; month lengths and leap years are checked; a time
  ///   needs its offset (`Z` or `±hh:mm`); leap seconds (`:60`) are not written or accepted.
  /// - `duration`: RFC 3339 appendix A (`P1Y2M3DT4H5M6S`, `P2W`), components in order.
  /// - `email`, `idn-email`: RFC 5321 mailboxes (a dot-atom or quoted local part, a host name
  ///   or an address literal); `idn-email` also takes non-ASCII characters in both parts.
  ///   Generation writes the plain form only (`writingPattern`).
  /// - `hostname`: RFC 1123 labels of at most 63 letters, digits and inner hyphens, without
  ///   `--` in the third and fourth place (kept for IDNA A-labels, which are not checked).
  /// - `ipv4`: dotted decimal without leading zeros; `ipv6`: RFC 4291 text forms, `::` and a
  ///   trailing IPv4 part included, no zone or prefix.
  /// - `uri`, `uri-reference`: RFC 3986; `iri`, `iri-reference`: RFC 3987 (the same with any
  ///   non-ASCII character where RFC 3986 has unreserved ones); `uri-template`: RFC 6570.
  /// - `json-pointer`: RFC 6901; `relative-json-pointer`: the JSON Schema draft's grammar.
  var pattern: String {
    switch self {
    case .date: return "^" + Self.dateRule + "$"
    case .time: return "^" + Self.timeRule + "$"
    case .dateTime: return "^" + Self.dateRule + "[Tt]" + Self.timeRule + "$"
    case .duration: return Self.durationRule
    case .uuid: return #"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"#
    case .email: return "^" + Self.email(atext: Self.asciiAtext, host: Self.hostnameRule) + "$"
    case .idnEmail:
      let atext = "(?:" + Self.asciiAtext + #"|[^\x00-\x7F])"#
      return "^" + Self.email(atext: atext, host: Self.internationalHostnameRule) + "$"
    case .hostname: return "^" + Self.hostnameRule + "$"
    case .ipv4: return "^" + Self.ipv4Rule + "$"
    case .ipv6: return "^" + Self.ipv6Rule + "$"
    case .uri: return "^" + Self.absoluteURI(Self.uriCharacters) + "$"
    case .uriReference:
      return "^(?:" + Self.absoluteURI(Self.uriCharacters) + "|" + Self.relativeReference(Self.uriCharacters) + ")$"
    case .iri: return "^" + Self.absoluteURI(Self.iriCharacters) + "$"
    case .iriReference:
      return "^(?:" + Self.absoluteURI(Self.iriCharacters) + "|" + Self.relativeReference(Self.iriCharacters) + ")$"
    case .uriTemplate: return Self.uriTemplateRule
    case .jsonPointer: return "^" + Self.jsonPointerRule + "$"
    case .relativeJSONPointer: return "^(?:0|[1-9][0-9]*)(?:#|" + Self.jsonPointerRule + ")$"
    }
  }

  private static let monthDay =
    #"(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|02-(?:0[1-9]|1\d|2[0-8]))"#
  private static let leapYear = #"(?:\d\d(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)"#
  private static let dateRule: String = #"(?:\d{4}-"# + monthDay + "|" + leapYear + "-02-29)"
  private static let timeRule =
    #"(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:[Zz]|[+-](?:[01]\d|2[0-3]):[0-5]\d)"#

  /// RFC 3339 appendix A, rule by rule: a minute may follow an hour and a second a minute,
  /// a month a year and a day a month; weeks stand alone.
  private static let durationRule: String = {
    let second = #"\d+S"#
    let minute = #"\d+M(?:\d+S)?"#
    let hour = #"\d+H(?:\d+M(?:\d+S)?)?"#
    let time = "T(?:" + hour + "|" + minute + "|" + second + ")"
    let day = #"\d+D"#
    let month = #"\d+M(?:\d+D)?"#
    let year = #"\d+Y(?:\d+M(?:\d+D)?)?"#
    let date = "(?:" + day + "|" + month + "|" + year + ")(?:" + time + ")?"
    return "^P(?:" + date + "|" + time + #"|\d+W)$"#
  }()

  /// The pattern generation writes values of: `pattern` itself, except for e-mail addresses,
  /// which are written in the form every mail system takes (`local.part@host.name`: no quoted
  /// local part, no address literal).
  var writingPattern: String {
    switch self {
    case .email: return "^" + Self.dotAtom(Self.asciiAtext) + "@" + Self.hostnameRule + "$"
    case .idnEmail:
      return "^" + Self.dotAtom("(?:" + Self.asciiAtext + #"|[^\x00-\x7F])"#) + "@" + Self.hostnameRule + "$"
    default: return pattern
    }
  }

  /// RFC 5322 `atext`.
  private static let asciiAtext = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]"

  private static func dotAtom(_ atext: String) -> String {
    atext + "+" + #"(?:\."# + atext + "+)*"
  }

  /// RFC 5321 `Mailbox`: a dot-atom or quoted local part, and a host name or an IPv4 or IPv6
  /// address literal.
  private static func email(atext: String, host: String) -> String {
    let quoted = #""(?:[^"\\\r\n]|\\.)*""#
    let literal: String = #"\[(?:"# + ipv4Rule + "|IPv6:" + ipv6Rule + #")\]"#
    return "(?:" + dotAtom(atext) + "|" + quoted + ")@(?:" + host + "|" + literal + ")"
  }

  /// A host name label of `letter`s and inner hyphens; see `pattern`.
  private static func label(_ letter: String) -> String {
    let inner = "(?:" + letter + "|-)"
    let long = letter + "(?:" + inner + "{0,59}" + letter + ")?|-" + letter + "(?:" + inner + "{0,58}" + letter + ")?"
    return letter + "(?:" + letter + "|" + inner + "(?:" + long + "))?"
  }

  private static func hostname(_ letter: String) -> String {
    label(letter) + #"(?:\."# + label(letter) + ")*"
  }

  private static let hostnameRule = hostname("[A-Za-z0-9]")
  /// Host names with non-ASCII letters (internationalized e-mail domains).
  private static let internationalHostnameRule = hostname(#"(?:[A-Za-z0-9]|[^\x00-\x7F])"#)

  private static let ipv4Rule: String = {
    let octet = #"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"#
    return octet + #"(?:\."# + octet + "){3}"
  }()

  /// RFC 3986's `IPv6address`, alternative by alternative.
  private static let ipv6Rule: String = {
    let h16 = "[0-9A-Fa-f]{1,4}"
    let pair: String = h16 + ":" + h16
    let ls32: String = "(?:" + pair + "|" + ipv4Rule + ")"
    func groups(_ count: Int) -> String { count == 0 ? "" : "(?:" + h16 + ":){\(count)}" }
    func head(_ most: Int) -> String {
      most < 0 ? "" : "(?:" + (most == 0 ? h16 : "(?:" + h16 + ":){0,\(most)}" + h16) + ")?"
    }
    let forms = [
      groups(6) + ls32,
      "::" + groups(5) + ls32,
      head(0) + "::" + groups(4) + ls32,
      head(1) + "::" + groups(3) + ls32,
      head(2) + "::" + groups(2) + ls32,
      head(3) + "::" + h16 + ":" + ls32,
      head(4) + "::" + ls32,
      head(5) + "::" + h16,
      head(6) + "::",
    ]
    return "(?:" + forms.joined(separator: "|") + ")"
  }()

  /// The characters of URI components, by component (RFC 3986 section 3).
  struct URICharacters {
    /// `unreserved`, `pct-encoded` and `sub-delims`: a `reg-name` character.
    var name: String
    /// `pchar`.
    var path: String
    /// A `segment-nz-nc` character (no colon).
    var pathNoColon: String
    /// A `userinfo` character.
    var user: String
    /// A query or fragment character.
    var query: String
  }

  private static func characters(unreserved: String) -> URICharacters {
    let encoded = "%[0-9A-Fa-f]{2}"
    let subDelimiters = "!$&'()*+,;="
    return URICharacters(
      name: "(?:" + unreserved + "|[" + subDelimiters + "]|" + encoded + ")",
      path: "(?:" + unreserved + "|[" + subDelimiters + ":@]|" + encoded + ")",
      pathNoColon: "(?:" + unreserved + "|[" + subDelimiters + "@]|" + encoded + ")",
      user: "(?:" + unreserved + "|[" + subDelimiters + ":]|" + encoded + ")",
      query: "(?:" + unreserved + "|[" + subDelimiters + ":@/?]|" + encoded + ")")
  }

  private static let uriCharacters = characters(unreserved: #"[A-Za-z0-9\-._~]"#)
  private static let iriCharacters = characters(unreserved: #"(?:[A-Za-z0-9\-._~]|[^\x00-\x7F])"#)

  /// `authority path-abempty` after `//`.
  private static func authorityAndPath(_ c: URICharacters) -> String {
    let future = #"[vV][0-9A-Fa-f]+\.(?:[A-Za-z0-9\-._~!$&'()*+,;=:])+"#
    let literal: String = #"\[(?:"# + ipv6Rule + "|" + future + #")\]"#
    let host: String = "(?:" + literal + "|" + c.name + "*)"
    let user: String = "(?:" + c.user + "*@)?"
    return "//" + user + host + #"(?::\d*)?(?:/"# + c.path + "*)*"
  }

  /// `scheme ":" hier-part [ "?" query ] [ "#" fragment ]`.
  private static func absoluteURI(_ c: URICharacters) -> String {
    let path =
      "(?:" + authorityAndPath(c) + "|/(?:" + c.path + "+(?:/" + c.path + "*)*)?|" + c.path + "+(?:/" + c.path
      + "*)*)?"
    return "[A-Za-z][A-Za-z0-9+.-]*:" + path + #"(?:\?"# + c.query + "*)?(?:#" + c.query + "*)?"
  }

  /// `relative-part [ "?" query ] [ "#" fragment ]`.
  private static func relativeReference(_ c: URICharacters) -> String {
    let path =
      "(?:" + authorityAndPath(c) + "|/(?:" + c.path + "+(?:/" + c.path + "*)*)?|" + c.pathNoColon + "+(?:/"
      + c.path + "*)*)?"
    return path + #"(?:\?"# + c.query + "*)?(?:#" + c.query + "*)?"
  }

  /// RFC 6570: literal characters and percent-encoded bytes, and `{op var:3,list*}` expressions.
  private static let uriTemplateRule: String = {
    // RFC 6570 leaves out `'`; the JSON Schema test suite takes it, as URI references do.
    let literal = #"(?:[!#$&-;=?-\[\]_a-z~]|[^\x00-\x7F]|%[0-9A-Fa-f]{2})"#
    let character = "(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})"
    let variable = character + #"(?:\.?"# + character + ")*(?::[1-9][0-9]{0,3}|\\*)?"
    return "^(?:" + literal + #"|\{[+#./;?&=,!@|]?"# + variable + "(?:," + variable + #")*\})*$"#
  }()

  private static let jsonPointerRule = "(?:/(?:[^~/]|~[01])*)*"
}
