#!/usr/bin/env python3
"""Writes packages/core/src/canonical/test-support/python-corpus.json: CPython's outcome (see
json_oracle.py) for every input of the committed CPython corpus, i.e. the 67 error vectors and 400
mutations of packages/core/src/lossless/test-support/python-json-cases.json and the 94 + 6 golden
vectors of fixtures/python-v1/canonical-vectors*.json. Inputs are referenced, not copied; a
canonical text longer than 4 KiB is stored as its SHA-256 and UTF-8 size.

Usage (from the repository root, with CPython 3.11): python3 tools/python-oracle/make_corpus.py
"""
import hashlib
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from json_oracle import outcome  # noqa: E402

sys.setrecursionlimit(1000)  # the interpreter default, as the reference tool runs with it


def compact(result):
    text = result.get("canonical")
    if text is not None and len(text) > 4096:
        data = text.encode("utf-8")
        del result["canonical"]
        result["sha256"] = hashlib.sha256(data).hexdigest()
        result["bytes"] = len(data)
    return result


def vector_input(vector):
    if "input_json" in vector:
        return vector["input_json"]
    t = vector["input_template"]
    return t["prefix"] + t["repeat"] * t["count"] + t["suffix"]


def main():
    entries = []
    cases = json.load(open("packages/core/src/lossless/test-support/python-json-cases.json", encoding="utf-8"))
    for group in ("errors", "mutations"):
        for index, (text, _) in enumerate(cases[group]):
            entries.append({"source": "python-json-cases.json", "group": group, "index": index, "outcome": compact(outcome(text))})
    for name in ("canonical-vectors.json", "canonical-vectors-large.json"):
        for vector in json.load(open("fixtures/python-v1/" + name, encoding="utf-8")):
            entries.append({"source": name, "name": vector["name"], "outcome": compact(outcome(vector_input(vector)))})
    meta = {"python": sys.version.split()[0], "generator": "tools/python-oracle/make_corpus.py"}
    with open("packages/core/src/canonical/test-support/python-corpus.json", "w", encoding="utf-8") as out:
        json.dump({"meta": meta, "entries": entries}, out, ensure_ascii=True, indent=0)
        out.write("\n")


if __name__ == "__main__":
    main()
