"""What the Python reference tool (session-checkpoint 0.1.1) does with a store file, in CPython,
for sealed-store interop (issue 36): its open checks, its read verification of every row (the
payload parses, is canonical, and hashes to payload_sha256), an export bundle in its layout, and
an import of that bundle into a new store with its schema and rules. Modelled on the reference's
code as PYTHON_REFERENCE.md records it (sections 2, 6 and 8); the tool itself is not part of this
repository. Usage: python3 python_reference_ops.py STORE NEW_STORE BUNDLE_OUT SCHEMA_JSON (the
reference's CREATE statements, from the fixture manifest); prints a JSON summary.
"""
import hashlib
import json
import sqlite3
import sys

FIELDS = ["id", "namespace", "session_id", "kind", "name", "payload", "payload_sha256", "created_at", "source_ref"]


def canonical(value):
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False)


def open_checks(db, path):
    tables = sorted(r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'"))
    assert tables == ["checkpoint_meta", "checkpoints"], f"Refusing incompatible SQLite file {path}; tables={tables!r}"
    meta = db.execute("SELECT value FROM checkpoint_meta WHERE key='schema_version'").fetchone()
    user_version = db.execute("PRAGMA user_version").fetchone()[0]
    assert meta is not None and meta[0] == "1" and user_version == 1, f"Unsupported checkpoint store schema in {path}"


def row_to_checkpoint(row):
    payload = json.loads(row["payload_json"])
    text = canonical(payload)
    if text != row["payload_json"] or hashlib.sha256(text.encode("utf-8")).hexdigest() != row["payload_sha256"]:
        raise ValueError(f"Checkpoint {row['id']} failed payload integrity verification")
    return {f: (payload if f == "payload" else row[f]) for f in FIELDS}


def main(store, new_store, bundle_out, schema_json):
    db = sqlite3.connect(store)
    db.row_factory = sqlite3.Row
    open_checks(db, store)
    namespaces = [r[0] for r in db.execute("SELECT DISTINCT namespace FROM checkpoints ORDER BY namespace")]
    listed = {ns: [row_to_checkpoint(r)["id"] for r in db.execute("SELECT * FROM checkpoints WHERE namespace=? ORDER BY created_at DESC, id DESC", (ns,))] for ns in namespaces}
    exported = [row_to_checkpoint(r) for r in db.execute("SELECT * FROM checkpoints ORDER BY id ASC")]
    bundle = {"schema": "ellmos.session-checkpoint-export.v1", "store_schema_version": 1, "exported_at": "2026-12-06T00:00:00Z", "namespace": None, "checkpoints": exported}
    with open(bundle_out, "w", encoding="utf-8") as f:
        f.write(json.dumps(bundle, ensure_ascii=False, indent=2) + "\n")
    target = sqlite3.connect(new_store)
    for statement in json.loads(schema_json):
        if not statement.startswith("CREATE TABLE sqlite_sequence"):
            target.execute(statement)
    target.execute("PRAGMA user_version = 1")
    target.execute("INSERT INTO checkpoint_meta (key, value) VALUES ('schema_version', '1')")
    inserted = []
    for item in json.load(open(bundle_out, encoding="utf-8"))["checkpoints"]:
        text = canonical(item["payload"])
        if hashlib.sha256(text.encode("utf-8")).hexdigest() != item["payload_sha256"]:
            raise ValueError(f"Imported checkpoint {item['id']} has a payload hash mismatch")
        target.execute(
            "INSERT INTO checkpoints (id, namespace, session_id, kind, name, payload_json, payload_sha256, created_at, source_ref) VALUES (?,?,?,?,?,?,?,?,?)",
            (item["id"], item["namespace"], item["session_id"], item["kind"], item["name"], text, item["payload_sha256"], item["created_at"], item["source_ref"]),
        )
        inserted.append(item["id"])
    target.commit()
    meta_keys = sorted(r[0] for r in db.execute("SELECT key FROM checkpoint_meta"))
    print(json.dumps({"listed": listed, "exported": [c["id"] for c in exported], "inserted": inserted, "meta_keys": meta_keys, "envelope_keys": sorted(exported[0]["payload"].keys()) if exported else []}))


if __name__ == "__main__":
    main(*sys.argv[1:5])
