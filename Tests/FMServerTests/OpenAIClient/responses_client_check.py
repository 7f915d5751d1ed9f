"""Drives a running `fm serve`'s Responses API with the official `openai` package; exits 0 when
every check holds.

Usage: python3 responses_client_check.py BASE_URL MODEL_ID API_KEY
Checks properties only (shapes, parsing, schema conformance, the cache, error classes), never
particular text or lengths.
"""
import json
import sys

import openai

base, model, key = sys.argv[1], sys.argv[2], sys.argv[3]
client = openai.OpenAI(base_url=base + "/v1", api_key=key, max_retries=0)
failures = []


def check(name, condition, detail=""):
    if not condition:
        failures.append(f"{name}: {detail}")


def finished(response, budget):
    """The status says whether the budget was used up."""
    used = response.usage.output_tokens
    return response.status == ("incomplete" if used == budget else "completed") and used <= budget


# Three turns of one conversation through previous_response_id: each evaluates only its new
# input, the rest of its prompt is found in the cache of the slot that served the turn before.
instructions = "You are a helpful assistant. Answer in one short sentence."
turns = []
previous = None
for text in ["Name a colour.", "Name another one.", "And a third."]:
    r = client.responses.create(
        model=model, instructions=instructions, input=text, previous_response_id=previous, max_output_tokens=12
    )
    check("id", r.id.startswith("resp_"), r.id)
    check("object", r.object == "response")
    check("finished", finished(r, 12), (r.status, r.usage))
    check("output text", isinstance(r.output_text, str))
    check("previous id", r.previous_response_id == previous, r.previous_response_id)
    turns.append(r)
    previous = r.id
for before, after in zip(turns, turns[1:]):
    cached = after.usage.input_tokens_details.cached_tokens
    # The turn before's prompt and answer are the start of this prompt; all of it (but the
    # last token, which is evaluated again for its logits) comes from the cache.
    check("cached", before.usage.input_tokens - 1 <= cached < after.usage.input_tokens, (before.usage, after.usage))
    check("grows", after.usage.input_tokens > before.usage.total_tokens - 1, (before.usage, after.usage))

# Retrieve, input items, delete, then 404.
again = client.responses.retrieve(turns[1].id)
check("retrieve", again.id == turns[1].id and again.output_text == turns[1].output_text, again)
items = client.responses.input_items.list(turns[2].id)
check("input items", [i.type for i in items.data] == ["message"] and items.data[0].role == "user", items)
check("input item text", items.data[0].content[0].text == "And a third.", items.data[0])
client.responses.delete(turns[0].id)
try:
    client.responses.retrieve(turns[0].id)
    check("deleted", False, "retrieve after delete succeeded")
except openai.NotFoundError:
    pass
try:
    client.responses.create(model=model, input="Hi", previous_response_id=turns[0].id, max_output_tokens=4)
    check("deleted previous", False, "continued a deleted response")
except openai.NotFoundError:
    pass

# Structured output: the text parses and satisfies the schema, at any length the budget allows.
schema = {
    "type": "object",
    "properties": {"name": {"type": "string", "maxLength": 20}, "age": {"type": "integer"}},
    "required": ["name", "age"],
    "additionalProperties": False,
}
r = client.responses.create(
    model=model,
    input="Invent a person.",
    text={"format": {"type": "json_schema", "name": "person", "schema": schema, "strict": True}},
    max_output_tokens=60,
)
if r.status == "completed":
    person = json.loads(r.output_text)
    check("schema", set(person) == {"name", "age"} and isinstance(person["age"], int), person)

# Tools, streamed: a required call to a named function, its arguments satisfy the schema.
tools = [
    {
        "type": "function",
        "name": "get_weather",
        "description": "The weather in a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string", "enum": ["Paris", "Oslo", "Rome"]}}, "required": ["city"]},
        "strict": True,
    }
]
with client.responses.stream(
    model=model,
    input="What is the weather in Paris?",
    tools=tools,
    tool_choice={"type": "function", "name": "get_weather"},
    max_output_tokens=60,
) as stream:
    types = [event.type for event in stream]
    final = stream.get_final_response() if types[-1] == "response.completed" else None
check("stream starts", types[:2] == ["response.created", "response.in_progress"], types[:3])
check("stream ends", types[-1] in ("response.completed", "response.incomplete"), types[-1:])
if final is not None:
    calls = [o for o in final.output if o.type == "function_call"]
    check("a call", len(calls) >= 1 and calls[0].name == "get_weather", final.output)
    check("arguments", set(json.loads(calls[0].arguments)) == {"city"}, calls[0].arguments)
    check("call events", "response.function_call_arguments.done" in types, types)
    # The call's output, continued on the stored response.
    r = client.responses.create(
        model=model,
        previous_response_id=final.id,
        input=[{"type": "function_call_output", "call_id": calls[0].call_id, "output": "Sunny, 21 C"}],
        tools=tools,
        tool_choice="none",
        max_output_tokens=12,
    )
    check("after the call", finished(r, 12) and all(o.type != "function_call" for o in r.output), r.output)
    check("call cached", r.usage.input_tokens_details.cached_tokens >= final.usage.input_tokens - 1, r.usage)

# Refusals are the client's usual exceptions.
try:
    client.responses.create(model=model, input="Hi", top_logprobs=3)
    check("unsupported", False, "top_logprobs accepted")
except openai.BadRequestError as error:
    check("unsupported param", "top_logprobs" in str(error), error)
try:
    client.responses.create(model="no-such-model", input="Hi")
    check("unknown model", False, "accepted")
except openai.NotFoundError:
    pass

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("ok")
