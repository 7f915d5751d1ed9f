extension StringFormat {
  /// The pattern that enforces the format, matching what common validators accept
  /// (RFC 3339 for dates and times, RFC 4122 text form for UUIDs).
  ///
  /// `date` checks month lengths and leap years; `time` and `date-time` require a UTC
  /// offset (`Z` or `±hh:mm`), as RFC 3339 does; `email` requires one `@` between
  /// non-empty parts without whitespace; `ipv4` is dotted decimal without leading zeros.
  var pattern: String {
    let monthDay =
      #"(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|02-(?:0[1-9]|1\d|2[0-8]))"#
    let leapYear = #"(?:\d\d(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)"#
    let date = #"(?:\d{4}-"# + monthDay + "|" + leapYear + "-02-29)"
    let time = #"(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:[Zz]|[+-](?:[01]\d|2[0-3]):[0-5]\d)"#
    switch self {
    case .date: return "^" + date + "$"
    case .time: return "^" + time + "$"
    case .dateTime: return "^" + date + "[Tt]" + time + "$"
    case .uuid: return #"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"#
    case .email: return #"^[^\s@]+@[^\s@]+$"#
    case .ipv4:
      let octet = #"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"#
      return "^" + octet + #"(?:\."# + octet + "){3}$"
    }
  }
}
