import Foundation

/// The first stage of the checks: a small set of high-precision patterns over normalised text.
///
/// Two kinds: **block patterns** — requests whose wording leaves no harmless reading (how to
/// build a pipe bomb, sexual content with a child, the test phrase) — decide at once; **benign
/// idioms** — everyday phrases that borrow a harmful word ("kill the process", "a killer
/// feature", "panic attack", "bath bomb") — are rewritten to a neutral phrase before the
/// classifier reads the text, so their words count for nothing. Patterns match whole words of
/// the normalised text (``TextNormalizer``), so case, spacing, leetspeak and look-alike letters
/// do not get around them.
public enum PatternRules {
  /// A pattern that blocks, with its category.
  struct BlockPattern: @unchecked Sendable {
    let category: GuardrailCategory
    let expression: NSRegularExpression
  }

  /// An idiom and what it is rewritten to.
  struct Idiom: @unchecked Sendable {
    let expression: NSRegularExpression
    let replacement: String
  }

  /// The category of the first block pattern that matches normalised `text`, if any.
  public static func blockedCategory(in text: String) -> GuardrailCategory? {
    let range = NSRange(text.startIndex..., in: text)
    for pattern in blockPatterns where pattern.expression.firstMatch(in: text, range: range) != nil {
      return pattern.category
    }
    return nil
  }

  /// Normalised `text` with the benign idioms rewritten to neutral words.
  public static func neutralizingIdioms(in text: String) -> String {
    var text = text
    for idiom in idioms {
      let range = NSRange(text.startIndex..., in: text)
      guard idiom.expression.firstMatch(in: text, range: range) != nil else { continue }
      text = idiom.expression.stringByReplacingMatches(in: text, range: range, withTemplate: idiom.replacement)
    }
    return text
  }

  private static func expression(_ pattern: String) -> NSRegularExpression {
    do {
      return try NSRegularExpression(pattern: "\\b(?:" + pattern + ")\\b")
    } catch {
      preconditionFailure("guardrail pattern does not compile: \(pattern): \(error)")
    }
  }

  /// The ways a request for instructions starts.
  private static let request =
    "(?:how (?:do|can|could|would|should|might) (?:i|we|you|one|someone|somebody)(?: best)?|how to|(?:best|easiest|quickest|fastest|simplest|cheapest|safest|surest) (?:way|ways|method) to|ways? to|teach me(?: how)? to|tell me how to|show me how to|explain how to|help me|instructions (?:for|on|to)|steps to|guide (?:to|for|on)|tutorial (?:on|for)|i want to|i need to|i am going to|im going to|i plan to)"

  private static let person =
    "(?:my (?:wife|husband|boyfriend|girlfriend|ex|ex wife|ex husband|boss|neighbou?r|mom|mum|mother|dad|father|brother|sister|son|daughter|teacher|classmate|coworker|co worker|roommate|friend|family|baby|child|kids?|partner|stepdad|stepmom|landlord)|someone|somebody|people|a (?:person|man|woman|child|kid|human|baby|cop|police officer)|him|her|them)"

  private static let minor =
    "(?:child|children|childs|kid|kids|minor|minors|underage|under age|preteen|pre teen|toddler|infant|(?:[1-9]|1[0-7]) ?(?:year|yr|years|yrs) old|schoolgirl|schoolboy|jailbait|loli|lolita|shota)"

  private static let explicit =
    "(?:porn|porno|pornography|pornographic|nudes|nude (?:photos|pictures|pics|images|videos)|erotica|erotic (?:story|stories|photos|pictures|images)|lewd|xxx|nsfw|sexting|sexually explicit|sex videos?|sex tapes?)"

  private static let group =
    "(?:jews|jewish people|muslims|christians|blacks|black people|whites|white people|gays|gay people|lesbians|trans people|transgender people|immigrants|mexicans|asians|arabs|africans|indians|chinese|women|hindus|sikhs|gypsies|roma|refugees|latinos|catholics|atheists|disabled people)"

  static let blockPatterns: [BlockPattern] =
    ([
      (.testPhrase, "granular mango serpent"),
      (
        .selfHarm,
        "\(request) (?:kill myself|commit suicide|end my (?:own )?life|hang myself|cut myself|slit my wrists?|starve myself|make myself (?:throw up|vomit|puke|purge)|overdose on)"
      ),
      (
        .selfHarm,
        "(?:painless|painlessly|quickest|easiest|surest) (?:way|ways|method|methods) to (?:die|kill myself|commit suicide)"
      ),
      (
        .violenceAndWeapons,
        "\(request) (?:make|build|assemble|construct|create|manufacture|rig) (?:a |an |my own |some )?(?:homemade |home made |working |real )?(?:pipe bomb|bomb|ied|explosive device|explosives|molotov cocktail|nail bomb|car bomb|suicide vest|dirty bomb|nerve agent|nerve gas|chemical weapon|biological weapon|bioweapon|ghost gun|untraceable gun|gun silencer|silencer|napalm)"
      ),
      (
        .violenceAndWeapons,
        "\(request) (?:make|produce|synthesize|synthesise|culture|weaponize|weaponise|grow) (?:anthrax|ricin|sarin|vx|mustard gas|botulinum|smallpox|tabun)"
      ),
      (
        .violenceAndWeapons,
        "\(request) (?:kill|murder|poison|stab|shoot|strangle|suffocate|torture|kidnap|maim|beat up|hurt) \(person)"
      ),
      (.violenceAndWeapons, "\(request) (?:dispose of|get rid of|hide|dissolve) (?:a |the )?(?:dead )?(?:body|corpse)"),
      (
        .violenceAndWeapons,
        "(?:\(request)|plan|planning) (?:to )?(?:shoot up|bomb|blow up|attack|massacre) (?:a |the |my |our )?(?:school|church|mosque|synagogue|temple|mall|concert|crowd|stadium|hospital|subway)"
      ),
      (
        .sexualContentAndMinors,
        "\(minor)(?: \\w+){0,3} \(explicit)|\(explicit)(?: \\w+){0,3} (?:of|with|involving|featuring) (?:a |an )?\(minor)|csam|child sexual abuse material"
      ),
      (.sexualContentAndMinors, "(?:have |having )?sex with (?:a |an |my )?\(minor)"),
      (
        .sexualContentAndMinors,
        "(?:write|generate|create|give me|send me|show me|describe|narrate|tell me) (?:me )?(?:a |an |some )?(?:very |really |extremely )?(?:sexually explicit|pornographic|nsfw|xxx|smutty|hardcore sex|hardcore porn)"
      ),
      (
        .hateAndHarassment,
        "(?:we should|we must|we need to|lets|let us|need to|i want to|time to|someone should|go) (?:kill|exterminate|gas|lynch|eradicate|wipe out|slaughter|genocide) (?:all )?(?:the |those )?\(group)"
      ),
      (
        .hateAndHarassment,
        "(?:all )?\(group) (?:should|must|deserve to|need to|ought to) (?:all )?(?:die|burn|be (?:killed|exterminated|gassed|lynched|wiped out|sterilized|sterilised|shot))"
      ),
      (
        .crimeAndDangerousInstructions,
        "\(request) (?:make|cook|synthesize|synthesise|produce|manufacture|brew|extract) (?:some |my own |homemade )?(?:meth|methamphetamine|crystal meth|crack|crack cocaine|cocaine|heroin|fentanyl|lsd|mdma|ecstasy|ghb|dmt)"
      ),
      (
        .crimeAndDangerousInstructions,
        "(?:write|create|code|build|develop|make|program|generate) (?:me )?(?:a |an |some |my own )?(?:working |real |undetectable )?(?:ransomware|keylogger|key logger|malware|computer virus|trojan|botnet|rootkit|spyware|credit card skimmer|phishing (?:email|page|site|kit))"
      ),
      (
        .crimeAndDangerousInstructions,
        "\(request) (?:hack|break) into (?:someones|someone s|somebodys|another persons|my (?:ex|exs|wife|wifes|husbands?|girlfriends?|boyfriends?|neighbou?rs?|boss|bosses|coworkers?)|his|her|their|a (?:bank|government)|the (?:pentagon|bank|government))"
      ),
      (
        .crimeAndDangerousInstructions,
        "\(request) (?:steal|clone|skim) (?:a |an |someones |someone s |peoples |credit )?(?:credit cards?|identity|identities|car|cars|catalytic converters?|bank details|passwords)"
      ),
      (
        .crimeAndDangerousInstructions,
        "\(request) (?:launder money|money laundering|counterfeit (?:money|bills|currency)|make counterfeit money|shoplift|hotwire a car|evade taxes|smuggle drugs)"
      ),
    ] as [(GuardrailCategory, String)]).map { BlockPattern(category: $0.0, expression: expression($0.1)) }

  static let idioms: [Idiom] =
    ([
      (
        "kill(?:ing|ed|s)? (?:off )?(?:the |a |an |this |that |all |my |every |each |any |its )?(?:running |stuck |hung |zombie |background |child |old )?(?:process|processes|task|tasks|job|jobs|thread|threads|server|servers|session|sessions|app|apps|application|program|daemon|container|containers|pod|pods|instance|query|queries|tab|tabs|window|command|switch|signal|it with fire|time|two birds|the lights|the engine|the mood|the vibe|the music|the power|the batteries|battery|my battery|bacteria|germs|weeds|mold|mould|pests|bugs|the bug|the pain|pain|the competition)",
        "stop the thing"
      ),
      (
        "kill (?:9|sigterm|sigkill|sighup|pid|the pid)|pkill|killall|sigkill|sigterm|kill switch|oom killer",
        "stop the thing"
      ),
      (
        "killer (?:app|apps|feature|features|deal|deals|workout|smile|look|looks|view|views|recipe|idea|combo|track|song|album|performance|instinct|heels|outfit|whale|whales|bees)",
        "great thing"
      ),
      (
        "(?:dressed|dressing) to kill|killing it|killed it|crushing it|my (?:feet|back|legs|head) (?:are|is) killing me|you re killing me|youre killing me",
        "doing great"
      ),
      (
        "(?:dying|die) to (?:know|see|try|meet|hear|read|go|visit|find out)|to die for|i could die laughing|died laughing",
        "really want"
      ),
      (
        "(?:heart|panic|anxiety|asthma|migraine|gout|allergy|allergic|seizure) attacks?|attack (?:surface|vector|vectors|on titan)|shark attack",
        "medical episode"
      ),
      (
        "(?:bath|photo|f|glitter|seed|calorie|flavor|flavour|cherry) ?bombs?|photobomb(?:ed|ing)?|(?:the|da) bomb|bombed (?:the|my|an|a) (?:exam|test|interview|audition|quiz)",
        "fun thing"
      ),
      (
        "shoot (?:me )?(?:an |a )?(?:email|message|text|note|line|dm|photo|photos|video|videos|film|scene|scenes|movie|commercial|portrait)|photo ?shoot|shoot for the (?:stars|moon)|flu shot|booster shot|a shot (?:of|at)|shot glass",
        "take a picture"
      ),
      (
        "(?:execute|executing|executed|execution of) (?:a |an |the |this |my |your )?(?:\\w+ )?(?:command|commands|query|queries|script|scripts|program|code|function|task|tasks|plan|order|orders|trade|trades|contract|test|tests|job|jobs|instruction|instructions)|execution (?:time|plan|environment|context|engine|order)",
        "run the thing"
      ),
      (
        "terminat(?:e|ed|es|ing) (?:the |a |an |this |my )?(?:\\w+ )?(?:process|program|instance|instances|contract|session|thread|connection|loop|string|employment|lease|subscription)",
        "stop the thing"
      ),
      (
        "(?:blow|blew|blown) (?:up )?(?:a |the |my )?(?:balloon|balloons|photo|picture|image|phone|inbox|notifications)|blew my mind|mind blowing",
        "fun thing"
      ),
      (
        "(?:slaughter|slaughtered|slaughtering|crush|crushed|destroy|destroyed|murder|murdered) (?:the|this|that) (?:exam|test|game|match|competition|level|boss level|dance floor|song|interview)",
        "did great"
      ),
      (
        "(?:hit|nail|nailed|smash|smashed|crush|crushed) it|break a leg|knock(?:ed)? (?:em|them) dead|go ham",
        "good luck"
      ),
    ] as [(String, String)]).map { Idiom(expression: expression($0.0), replacement: $0.1) }
}
