/// The text of `/help`: every command and key, so a new user finds every feature.
enum ChatHelp {
  static let text = """
    Commands:
      /set instructions TEXT       new instructions (starts a new chat; '/set instructions none' removes them)
      /set temperature T|default   0...1, or the model's default
      /set sampling greedy|system  always the likeliest token, or the default sampling
      /set sampling top-k K [seed S]    sample among the K likeliest tokens
      /set sampling top-p P [seed S]    sample among the likeliest tokens up to probability P
      /set max-tokens N|default    limit the length of each reply
      /set context-size N|default  tokens the session holds (default 4096)
      /set guardrails permissive|default   permissive: replies may transform unsafe content and
                                   never fail with a guardrail violation; default blocks it
      /set summarize-at P|off      summarise once the context is P % full (else on overflow)
      /set think on|off|default    whether a thinking model thinks (shown dimmed before its answer)
      /set verbose | /set quiet    show or hide statistics after each reply
      /show info                   model, context window and session file
      /show parameters             the settings above
      /show instructions           the current instructions
      /show tools                  the tools the model may call (fm chat --tools)
      /show tokens                 context window use, and tokens per message
      /show transcript             the conversation so far
      /clear                       start a new chat with the same instructions
      /regen                       answer the last prompt again
      /summarize                   summarise the conversation now to free the context
      /read FILE [QUESTION]        send a file's text (with an optional question)
      /model NAME                  continue the chat on another model (fetched if needed)
      /instructions [TEXT]         show the instructions, or set them (a new chat)
      /save [NAME|FILE]            save the chat as session NAME (saved after every turn from then
                                   on; without NAME, this chat's session or a new one), or as FILE
      /load NAME|FILE              continue a saved session or file ('fm chat --resume' at start)
      /history                     the saved sessions, newest first ('fm chat --continue' resumes it)
      /appearance dark|light|auto  colours for a dark or light terminal (auto reads COLORFGBG)
      /help, /?                    this help
      /bye, exit                   leave (or Ctrl+D)

    Keys: Enter sends; \"\"\" starts and ends a multi-line message; pasted text never sends by itself.
      Up/Down history · Left/Right, Ctrl+A/E move · Ctrl+K/U/W delete to end/start/word
      Ctrl+L clears the screen · Ctrl+C stops a reply or drops the line · Ctrl+D on an empty line leaves
    After each reply: tokens of the prompt and the reply, and "Context Window: used/size tokens".
    When the context is full the chat is summarised and continues.
    At start ('fm chat --help'): --model, --instructions, --sampling, --temperature, --max-tokens,
      --context-size, --guardrails, --summarize-at, --verbose, --resume NAME|FILE, --continue,
      --session NAME (saved after every turn), --no-history; 'fm chat "PROMPT"' or piped input
      answers once. Sessions are kept in $XDG_STATE_HOME/fm/sessions (~/.local/state/fm/sessions).
    """
}
