#!/usr/bin/env python3
"""Renders chat templates with jinja2 as Hugging Face transformers renders them: the reference
of the template parity tests (Tests/InferenceEngineTests/TemplateParity).

Reads a JSON array on stdin, each item {"template": SOURCE, "context": {...}, "now": UNIX_SECONDS},
and writes a JSON array on stdout, each {"text": RENDERED} or {"error": "TYPE: MESSAGE"}.

The environment is the one transformers' chat_template_utils builds: an immutable sandbox with
trim_blocks and lstrip_blocks, the loop controls, a {% generation %} block that renders its
body, `tojson` as json.dumps (no ASCII escaping; indent, separators and sort_keys as given),
`raise_exception`, and `strftime_now`, which formats the request's `now` (UTC) instead of the
clock so that both sides of a comparison read the same time.
"""
import json
import sys
from datetime import datetime, timezone

from jinja2 import nodes
from jinja2.exceptions import TemplateError
from jinja2.ext import Extension, loopcontrols
from jinja2.sandbox import ImmutableSandboxedEnvironment


class GenerationBlock(Extension):
    """`{% generation %}…{% endgeneration %}`: marks the assistant's text; renders its body."""

    tags = {"generation"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(["name:endgeneration"], drop_needle=True)
        return nodes.CallBlock(self.call_method("_render"), [], [], body).set_lineno(lineno)

    def _render(self, caller):
        return caller()


def raise_exception(message):
    raise TemplateError(message)


def tojson(value, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    return json.dumps(value, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)


def render(item):
    now = datetime.fromtimestamp(item.get("now", 0), tz=timezone.utc)
    environment = ImmutableSandboxedEnvironment(
        trim_blocks=True, lstrip_blocks=True, extensions=[GenerationBlock, loopcontrols]
    )
    environment.filters["tojson"] = tojson
    environment.globals["raise_exception"] = raise_exception
    environment.globals["strftime_now"] = lambda format: now.strftime(format)
    try:
        template = environment.from_string(item["template"])
        return {"text": template.render(**item["context"])}
    except Exception as error:  # the template's own failure is a rendered outcome too
        return {"error": f"{type(error).__name__}: {error}"}


def main():
    json.dump([render(item) for item in json.load(sys.stdin)], sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
