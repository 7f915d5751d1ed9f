/// Word classes the classifier reads besides the words themselves: kinds of harm (weapons,
/// killing, fraud, drugs…), the framing of a request for instructions ("how do I", "step by
/// step", "help me"), and protective or informational intent ("prevent", "history", "symptoms").
///
/// Why: the public data has a few hundred harmful requests, so most harmful words occur once or
/// never in training ("a biochemical weapon" is learnt from "a chemical weapon" only if the two
/// share a feature). A word's class is one more feature, shared by every word of the class, so
/// what the trainer learns from one member carries to the others; a request that names a harm
/// also gets a feature pairing the framing with the class, which the trainer can weigh apart
/// from a question *about* the harm. The classes carry no weights of their own: whether a class
/// counts for or against a category is learnt from the data by `guardrails-train`.
public enum HarmConcepts {
  /// A word's class, by the word or its stem (a plural, `-ing`, `-ed`, `-er` ending dropped).
  public static func concept(of word: String) -> String? {
    if let concept = classes[word] { return concept }
    for suffix in ["ing", "ers", "ed", "er", "es", "s"] where word.count > suffix.count + 3 && word.hasSuffix(suffix) {
      if let concept = classes[String(word.dropLast(suffix.count))] { return concept }
    }
    return nil
  }

  /// The classes of harm that, aimed at a person (``targetClasses``) within a few words, make
  /// the pairing feature of ``FeatureHasher``: "strangle my date" against "kill a process".
  public static let harmClasses: Set<String> = [
    "killing", "weapon", "terror", "fraud", "cyber", "drug", "sexual", "hate",
  ]
  /// The classes of the people harm can be aimed at.
  public static let targetClasses: Set<String> = ["person", "minor", "group"]

  /// Whether `word` (with the one before it) frames a request for instructions or for help
  /// doing something.
  public static func isRequestFraming(_ word: String, after previous: String?) -> Bool {
    switch (previous, word) {
    case ("how", "to"), ("how", "do"), ("how", "can"), ("how", "could"), ("how", "would"), ("how", "should"),
      ("best", "way"), ("easiest", "way"), ("quickest", "way"), ("fastest", "way"), ("ways", "to"),
      ("step", "by"), ("help", "me"), ("teach", "me"), ("tell", "me"), ("show", "me"), ("give", "me"),
      ("guide", "to"), ("guide", "for"), ("steps", "to"), ("tips", "for"), ("tips", "to"), ("i", "want"),
      ("i", "need"), ("assist", "me"), ("assist", "in"), ("method", "to"), ("methods", "to"), ("write", "a"):
      true
    default: false
    }
  }

  private static let groups: [String: [String]] = [
    "weapon": [
      "weapon", "gun", "firearm", "rifle", "pistol", "shotgun", "ammo", "ammunition", "bomb", "explosive",
      "grenade", "detonator", "landmine", "napalm", "molotov", "silencer", "suppressor", "bullet", "knife",
      "machete", "missile", "warhead", "nuke", "nuclear", "bioweapon", "anthrax", "sarin", "ricin", "nerve",
      "toxin", "thermite", "tnt", "dynamite", "ied", "shrapnel", "crossbow", "artillery",
    ],
    "killing": [
      "kill", "murder", "assassinate", "assassination", "slaughter", "massacre", "strangle", "stab", "shoot",
      "behead", "torture", "maim", "mutilate", "dismember", "execute", "homicide", "manslaughter", "poison",
      "suffocate", "drown", "beat", "attack", "assault", "hurt", "harm", "injure", "wound", "kidnap", "abduct",
      "hostage", "lynch", "genocide", "corpse", "body", "bloodshed", "violent", "violence", "cripple",
      "slay", "throttle", "liquidate", "smash", "crush", "overpower", "eliminate", "terminate", "tackle",
    ],
    "terror": [
      "terrorist", "terrorism", "terror", "jihad", "extremist", "extremism", "radicalize", "radicalise",
      "militia", "insurgent", "sabotage", "hijack", "bombing", "shooting", "rampage", "infrastructure",
    ],
    "fraud": [
      "fraud", "scam", "counterfeit", "forge", "forgery", "fake", "falsify", "launder", "laundering",
      "embezzle", "embezzlement", "bribe", "bribery", "extort", "extortion", "blackmail", "ransom", "phishing",
      "identity", "ponzi", "pyramid", "insider", "evade", "evasion", "smuggle", "smuggling", "trafficking",
      "traffic", "steal", "theft", "rob", "robbery", "burglary", "burglar", "shoplift", "loot", "pirate",
      "piracy", "illegal", "illegally", "illicit", "unlawful", "undetected", "untraceable", "cheat",
    ],
    "cyber": [
      "hack", "hacker", "malware", "ransomware", "virus", "trojan", "keylogger", "spyware", "botnet", "ddos",
      "exploit", "backdoor", "rootkit", "phish", "crack", "bruteforce", "breach", "doxx", "doxxing", "dox",
      "stalk", "stalker", "spy", "surveil", "track", "wiretap", "eavesdrop",
    ],
    "drug": [
      "drug", "cocaine", "heroin", "meth", "methamphetamine", "fentanyl", "lsd", "mdma", "ecstasy", "opium",
      "opioid", "crack", "ketamine", "narcotic", "cannabis", "marijuana", "weed", "overdose", "high",
      "inhale", "inject", "snort", "dealer", "cartel",
    ],
    "selfharm": [
      "suicide", "suicidal", "selfharm", "cut", "cutting", "overdose", "noose", "hang", "bleed", "starve",
      "purge", "bulimia", "bulimic", "anorexia", "anorexic", "proana", "laxative", "die", "dying", "death",
      "lethal", "fatal", "painless", "myself",
    ],
    "sexual": [
      "sex", "sexual", "sexually", "porn", "porno", "pornography", "nude", "naked", "erotic", "erotica",
      "orgasm", "fetish", "genital", "genitals", "penis", "vagina", "breast", "boob", "intimate", "lewd",
      "explicit", "dirty", "horny", "masturbate", "prostitute", "prostitution", "escort", "adult", "seduce",
      "rape", "molest", "grope", "fantasy", "fantasies",
    ],
    "minor": [
      "child", "children", "kid", "minor", "underage", "teen", "teenager", "preteen", "toddler", "infant",
      "schoolgirl", "schoolboy", "boy", "girl", "student", "baby",
    ],
    "hate": [
      "hate", "hateful", "racist", "racism", "slur", "slurs", "bigot", "bigotry", "inferior", "subhuman",
      "supremacy", "supremacist", "nazi", "discriminate", "discrimination", "exterminate", "offensive",
      "insult", "demean", "degrade", "humiliate", "harass", "harassment", "bully", "bullying", "threaten",
      "threat", "intimidate", "scare", "mock", "ridicule", "stereotype", "derogatory",
    ],
    "group": [
      "jew", "jewish", "muslim", "islam", "christian", "black", "white", "gay", "lesbian", "trans",
      "transgender", "immigrant", "mexican", "asian", "arab", "african", "indian", "chinese", "women", "woman",
      "hindu", "sikh", "gypsy", "roma", "refugee", "latino", "catholic", "atheist", "disabled", "race",
      "ethnic", "religion", "minority", "minorities", "foreigner",
    ],
    "person": [
      "someone", "somebody", "person", "people", "human", "humans", "wife", "husband", "spouse", "partner",
      "girlfriend", "boyfriend", "date", "ex", "neighbor", "neighbour", "boss", "coworker", "colleague",
      "classmate", "teacher", "friend", "family", "mother", "father", "mom", "dad", "brother", "sister", "man",
      "men", "guy", "cop", "officer", "president", "politician", "official", "victim", "stranger", "everyone",
      "him", "her", "crowd", "civilians", "employee", "customer", "patient", "individual", "individuals",
      "citizens", "passengers", "users", "senator", "celebrity", "journalist", "witness",
    ],
    "secrecy": [
      "secretly", "covertly", "anonymously", "unnoticed", "undetectable", "hide", "conceal", "without",
      "caught", "getting", "away", "trace", "evidence", "police", "law", "enforcement", "authorities",
    ],
    "protective": [
      "prevent", "prevention", "protect", "protection", "avoid", "safe", "safely", "safety", "spot",
      "recognize", "recognise", "detect", "identify", "report", "warning", "signs", "symptoms", "treat",
      "treatment", "recover", "recovery", "cope", "support", "history", "historical", "novel", "story",
      "character", "fiction", "film", "movie", "book", "documentary", "research", "legal", "legally",
      "doctor", "therapist", "hotline", "emergency", "first", "aid",
    ],
  ]

  private static let classes: [String: String] = {
    var classes: [String: String] = [:]
    for (name, words) in groups.sorted(by: { $0.key < $1.key }) {
      for word in words where classes[word] == nil { classes[word] = name }
    }
    return classes
  }()
}
