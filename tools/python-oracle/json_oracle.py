#!/usr/bin/env python3
"""CPython's verdict on JSON texts, for comparing core's JSON reader against the reference.

Reads a JSON array of strings on stdin and writes a JSON array of outcomes on stdout, one per
input, in order. Each outcome is one of:

  {"canonical": TEXT, "type": "dict"|"list"|"str"|"int"|"float"|"bool"|"NoneType"}
      json.loads succeeded and json.dumps(value, ensure_ascii=False, sort_keys=True,
      separators=(",", ":"), allow_nan=False) produced TEXT, which encodes to UTF-8.
  {"stage": "parse", "message": MSG}     json.loads raised JSONDecodeError(MSG).
  {"stage": "parse-limit", "message": MSG}  json.loads raised another ValueError (int digits limit).
  {"stage": "recursion"}                 json.loads or json.dumps hit the recursion limit.
  {"stage": "dumps", "message": MSG, "type": T}  json.dumps raised ValueError(MSG) (NaN/Infinity).
  {"stage": "encode", "unit": "\\udXXX", "position": N, "type": T}
      the canonical text holds a lone surrogate at code point N (UTF-8 encoding fails there).

Usage: python3 tools/python-oracle/json_oracle.py < inputs.json > outcomes.json
"""
import json
import sys


def outcome(text):
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        return {"stage": "parse", "message": str(error)}
    except RecursionError:
        return {"stage": "recursion"}
    except ValueError as error:
        return {"stage": "parse-limit", "message": str(error)}
    kind = type(value).__name__
    try:
        out = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False)
    except RecursionError:
        return {"stage": "recursion"}
    except ValueError as error:
        return {"stage": "dumps", "message": str(error), "type": kind}
    try:
        out.encode("utf-8")
    except UnicodeEncodeError as error:
        return {"stage": "encode", "unit": "\\u%04x" % ord(out[error.start]), "position": error.start, "type": kind}
    return {"canonical": out, "type": kind}


def main():
    inputs = json.load(sys.stdin)
    # Lone surrogates in outcomes are written as \\u escapes (ensure_ascii), so stdout stays valid UTF-8.
    json.dump([outcome(text) for text in inputs], sys.stdout, ensure_ascii=True)


if __name__ == "__main__":
    main()
