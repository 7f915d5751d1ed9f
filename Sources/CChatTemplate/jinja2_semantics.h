// Where llama.cpp's Jinja engine is more lenient than Python's jinja2 as Hugging Face's
// transformers runs chat templates, and a template's text depends on it, the parsed program is
// rewritten to behave as jinja2 does (see jinja2_semantics.cpp).
#pragma once

namespace jinja {
struct program;
}

/// Rewrites `program` in place: its `+` expressions raise on None and undefined operands, and
/// HTML-escape what is added to `|safe` text, as jinja2 does.
void fm_apply_jinja2_semantics(jinja::program &program);
