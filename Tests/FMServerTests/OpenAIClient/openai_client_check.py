"""Drives a running `fm serve` with the official `openai` package; exits 0 when every check holds.

Usage: python3 openai_client_check.py BASE_URL MODEL_ID API_KEY
Checks properties only (shapes, parsing, schema conformance, error classes), never particular text.
"""
import json
import sys
import urllib.request

import openai

base, model, key = sys.argv[1], sys.argv[2], sys.argv[3]
client = openai.OpenAI(base_url=base + "/v1", api_key=key, max_retries=0)
failures = []


def check(name, condition, detail=""):
    if not condition:
        failures.append(f"{name}: {detail}")


user = [{"role": "user", "content": "Say hello to the world."}]

# Non-streaming.
r = client.chat.completions.create(model=model, messages=user, max_tokens=8)
choice = r.choices[0]
check("id", r.id.startswith("chatcmpl-"), r.id)
check("role", choice.message.role == "assistant")
check("content", isinstance(choice.message.content, str))
check("finish_reason", choice.finish_reason in ("stop", "length"), choice.finish_reason)
check("usage", r.usage.total_tokens == r.usage.prompt_tokens + r.usage.completion_tokens, r.usage)
check("length", (choice.finish_reason == "length") == (r.usage.completion_tokens == 8), (choice.finish_reason, r.usage))

# Streaming, through the client.
chunks = list(
    client.chat.completions.create(
        model=model, messages=user, max_tokens=8, stream=True, stream_options={"include_usage": True}
    )
)
first = chunks[0].choices[0].delta
check("first chunk role only", first.role == "assistant" and not first.content, first)
check("one id", len({c.id for c in chunks}) == 1, {c.id for c in chunks})
check("one created", len({c.created for c in chunks}) == 1)
with_choices = [c for c in chunks if c.choices]
final = with_choices[-1].choices[0]
check("final chunk", final.finish_reason in ("stop", "length") and not final.delta.content, final)
check("only final has a reason", all(c.choices[0].finish_reason is None for c in with_choices[:-1]))
check("usage chunk", chunks[-1].choices == [] and chunks[-1].usage.completion_tokens >= 1, chunks[-1])
# The same messages again: their prompt is found in the KV cache, all of it but the last token.
details = chunks[-1].usage.prompt_tokens_details if chunks[-1].usage else None
check("cached tokens", details is not None and 1 <= details.cached_tokens < chunks[-1].usage.prompt_tokens, details)

# The raw stream ends with [DONE].
request = urllib.request.Request(
    base + "/v1/chat/completions",
    data=json.dumps({"model": model, "messages": user, "max_tokens": 4, "stream": True}).encode(),
    headers={"Content-Type": "application/json", "Authorization": f"Bearer {key}"},
)
events = [e for e in urllib.request.urlopen(request).read().decode().split("\n\n") if e]
check("[DONE]", events[-1] == "data: [DONE]", events[-1:])

# json_schema output parses and satisfies the schema. The schema bounds the output: a name of
# at most 20 characters (at most 12 bytes each, as a surrogate pair's escapes), an age of at most
# three digits, at most three pets and the fixed text, under 300 bytes; a token is at least one
# byte, so 320 tokens always suffice, whatever this CPU's model writes into the name.
schema = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "maxLength": 20},
        "age": {"type": "integer", "minimum": 0, "maximum": 120},
        "pets": {"type": "array", "items": {"type": "string", "enum": ["cat", "dog"]}, "maxItems": 3},
    },
    "required": ["name", "age", "pets"],
    "additionalProperties": False,
}
r = client.chat.completions.create(
    model=model,
    messages=[{"role": "user", "content": "Describe a person."}],
    max_tokens=320,
    response_format={"type": "json_schema", "json_schema": {"name": "person", "strict": True, "schema": schema}},
)
person = json.loads(r.choices[0].message.content)
check("schema keys", set(person) == {"name", "age", "pets"}, person)
check("schema name", isinstance(person.get("name"), str) and len(person["name"]) <= 20, person)
check("schema age", isinstance(person.get("age"), int) and 0 <= person["age"] <= 120, person)
check("schema pets", isinstance(person.get("pets"), list) and all(p in ("cat", "dog") for p in person["pets"]), person)

# Tools: required and named choices give calls whose arguments parse as the declared schema.
tools = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "The weather in a city.",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}, "unit": {"type": "string", "enum": ["c", "f"]}},
                "required": ["city", "unit"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "get_time",
            "description": "The time in a city.",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
        },
    },
]
for tool_choice in ("required", {"type": "function", "function": {"name": "get_weather"}}):
    r = client.chat.completions.create(
        model=model,
        messages=[{"role": "user", "content": "What is the weather in Oslo?"}],
        max_tokens=80,
        tools=tools,
        tool_choice=tool_choice,
    )
    choice = r.choices[0]
    calls = choice.message.tool_calls or []
    check(f"{tool_choice}: finish", choice.finish_reason == "tool_calls", choice.finish_reason)
    check(f"{tool_choice}: calls", len(calls) >= 1, choice.message)
    for call in calls:
        arguments = json.loads(call.function.arguments)
        check(f"{tool_choice}: id", call.id.startswith("call_"), call.id)
        if isinstance(tool_choice, dict):
            check("named", call.function.name == "get_weather", call.function.name)
        if call.function.name == "get_weather":
            check("weather args", isinstance(arguments.get("city"), str) and arguments.get("unit") in ("c", "f"), arguments)
        else:
            check("time args", isinstance(arguments.get("city"), str), arguments)

# Legacy text completions: the prompt as it is, echoed first, with the log probabilities of
# its tokens (the first has none) and of the completion's, each with at most 2 alternatives.
prompt = "The capital of France is"
r = client.completions.create(model=model, prompt=prompt, max_tokens=4, temperature=0, logprobs=2, echo=True)
choice = r.choices[0]
check("completion id", r.id.startswith("cmpl-") and r.object == "text_completion", (r.id, r.object))
check("echo", choice.text.startswith(prompt), choice.text)
check("completion reason", choice.finish_reason in ("stop", "length"), choice.finish_reason)
lp = choice.logprobs
counts = {len(lp.tokens), len(lp.token_logprobs), len(lp.top_logprobs), len(lp.text_offset)}
check("logprobs arrays", counts == {r.usage.prompt_tokens + r.usage.completion_tokens}, (counts, r.usage))
check("first prompt token", lp.token_logprobs[0] is None and lp.top_logprobs[0] is None, lp.token_logprobs[:1])
check("logprobs <= 0", all(v <= 0 for v in lp.token_logprobs[1:]), lp.token_logprobs)
check("top_logprobs", all(1 <= len(t) <= 2 for t in lp.top_logprobs[1:]), lp.top_logprobs)
generated = range(r.usage.prompt_tokens, len(lp.tokens))
check(
    "greedy is top-1",
    all(max(lp.top_logprobs[i], key=lp.top_logprobs[i].get) == lp.tokens[i] for i in generated),
    [(lp.tokens[i], lp.top_logprobs[i]) for i in generated],
)
check("text offsets", lp.text_offset == sorted(lp.text_offset) and lp.text_offset[0] == 0, lp.text_offset)
# Streamed, greedy: the chunks make the text of the same request without echo.
whole = client.completions.create(model=model, prompt=prompt, max_tokens=6, temperature=0)
chunks = list(
    client.completions.create(
        model=model, prompt=prompt, max_tokens=6, temperature=0, stream=True, stream_options={"include_usage": True}
    )
)
with_choices = [c for c in chunks if c.choices]
check("completion chunks", all(c.object == "text_completion" for c in chunks), [c.object for c in chunks])
check("streamed text", "".join(c.choices[0].text for c in with_choices) == whole.choices[0].text, whole.choices[0].text)
check("streamed reason", with_choices[-1].choices[0].finish_reason == whole.choices[0].finish_reason)
check("streamed usage", chunks[-1].usage.completion_tokens == whole.usage.completion_tokens, chunks[-1].usage)
try:
    client.completions.create(model=model, prompt=prompt, n=2)
    failures.append("completions n: no error")
except openai.BadRequestError as error:
    check("completions n", error.status_code == 400 and "n" == error.body.get("param"), error.body)

# Errors come back as the client's exceptions with the right status.
def expect_error(name, exception, status, **arguments):
    try:
        client.chat.completions.create(model=model, messages=user, max_tokens=4, **arguments)
        failures.append(f"{name}: no error")
    except exception as error:
        check(name, error.status_code == status, error)


expect_error("n", openai.BadRequestError, 400, n=2)
expect_error("unknown", openai.BadRequestError, 400, extra_body={"frobnicate": True})
expect_error("penalty", openai.BadRequestError, 400, presence_penalty=1.0)
try:
    client.chat.completions.create(model="no-such-model", messages=user, max_tokens=4)
    failures.append("model: no error")
except openai.NotFoundError as error:
    check("model", error.status_code == 404, error)
try:
    openai.OpenAI(base_url=base + "/v1", api_key="wrong", max_retries=0).models.list()
    failures.append("key: no error")
except openai.AuthenticationError as error:
    check("key", error.status_code == 401, error)
check("models", [m.id for m in client.models.list()] == [model])

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("ok")
