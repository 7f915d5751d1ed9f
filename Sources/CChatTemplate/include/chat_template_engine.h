// A C interface to the pinned llama.cpp's Jinja engine (libllama-common), for rendering a
// model's own chat template. Swift calls these; the engine's C++ types stay behind them.
#ifndef CHAT_TEMPLATE_ENGINE_H
#define CHAT_TEMPLATE_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A parsed template. Immutable once made, so one may render on several threads at once.
typedef struct fm_chat_template fm_chat_template;

/// A rendering: the text and, in order, the lengths of its parts and whether each came from
/// input (a string the context marked with `{"__input__": …}`) or from the template.
typedef struct fm_rendering {
  char *text;
  size_t text_length;
  size_t *part_lengths;
  unsigned char *part_is_input;
  size_t part_count;
} fm_rendering;

/// Parses `source` (`length` bytes). Returns NULL on a syntax error and sets `*error` to a
/// message the caller frees with `fm_chat_template_free_string`.
fm_chat_template *fm_chat_template_parse(const char *source, size_t length, char **error);

void fm_chat_template_free(fm_chat_template *template_);

/// Whether the template renders a tool call's arguments only as a JSON string: llama.cpp's
/// capability probe (`jinja::caps_get`, run once when parsing) found that it renders tool
/// calls but never reads into an arguments object. Returns 1 or 0.
int fm_chat_template_takes_string_arguments(const fm_chat_template *template_);

/// Renders with `context_json` (a JSON object, `length` bytes) as the template's variables.
/// A string given as `{"__input__": "text"}` is input. `now` (Unix seconds) is the time that
/// `strftime_now` reads. Returns 0 and fills `*rendering` (freed with
/// `fm_rendering_free`), or -1 and sets `*error`.
int fm_chat_template_render(
    const fm_chat_template *template_, const char *context_json, size_t length, int64_t now,
    fm_rendering *rendering, char **error);

void fm_rendering_free(fm_rendering *rendering);

void fm_chat_template_free_string(char *string);

#ifdef __cplusplus
}
#endif

#endif
