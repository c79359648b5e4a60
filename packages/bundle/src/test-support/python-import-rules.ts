/**
 * An independent model of the Python reference's `import_bundle` checks (PYTHON_REFERENCE.md
 * section 8), used to prove that bundles we write are accepted by the reference. It shares no code
 * with the importer: its own JSON reader (Python semantics: last duplicate wins, ints exact,
 * floats as doubles), its own canonical dump (`sort_keys`, compact, `ensure_ascii=False`,
 * `float.__repr__`) and node:crypto for SHA-256. Recursive: test inputs are our own exports.
 */
import { createHash } from 'node:crypto';

type Py =
  | { t: 'dict'; m: Map<string, Py> }
  | { t: 'list'; a: Py[] }
  | { t: 'str'; v: string }
  | { t: 'int'; v: bigint }
  | { t: 'float'; v: number }
  | { t: 'bool'; v: boolean }
  | { t: 'none' };

/** Python `json.loads` (strict enough for well-formed input; errors are plain Errors). */
export function pyLoads(text: string): Py {
  let i = 0;
  const ws = () => {
    while (' \t\n\r'.includes(text[i] ?? 'x') && i < text.length) i++;
  };
  const value = (): Py => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const m = new Map<string, Py>();
      ws();
      if (text[i] === '}') {
        i++;
        return { t: 'dict', m };
      }
      for (;;) {
        ws();
        const k = value();
        if (k.t !== 'str') throw new Error('key');
        ws();
        if (text[i++] !== ':') throw new Error('colon');
        m.set(k.v, value());
        ws();
        const d = text[i++];
        if (d === '}') return { t: 'dict', m };
        if (d !== ',') throw new Error('comma');
      }
    }
    if (c === '[') {
      i++;
      const a: Py[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return { t: 'list', a };
      }
      for (;;) {
        a.push(value());
        ws();
        const d = text[i++];
        if (d === ']') return { t: 'list', a };
        if (d !== ',') throw new Error('comma');
      }
    }
    if (c === '"') {
      const m = /^"(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/.exec(text.slice(i));
      if (!m) throw new Error('string');
      i += m[0].length;
      return { t: 'str', v: JSON.parse(m[0]) as string };
    }
    for (const [word, v] of [['true', { t: 'bool', v: true }], ['false', { t: 'bool', v: false }], ['null', { t: 'none' }]] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return v as Py;
      }
    }
    const m = /^-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/.exec(text.slice(i, i + 5000));
    if (!m) throw new Error(`value at ${i}`);
    i += m[0].length;
    return m[1] === undefined && m[2] === undefined ? { t: 'int', v: BigInt(m[0]) } : { t: 'float', v: Number(m[0]) };
  };
  const v = value();
  ws();
  if (i !== text.length) throw new Error('Extra data');
  return v;
}

function pyFloatRepr(x: number): string {
  if (!Number.isFinite(x)) throw new Error('Out of range float values are not JSON compliant');
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [mant, expText] = Math.abs(x).toExponential().split('e') as [string, string];
  const exp = Number(expText);
  const digits = mant.replace('.', '');
  const sign = x < 0 ? '-' : '';
  if (exp < -4 || exp >= 16) return `${sign}${mant}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const whole = digits.padEnd(exp + 1, '0');
  const frac = digits.slice(exp + 1);
  return `${sign}${whole.slice(0, exp + 1)}.${frac === '' ? '0' : frac}`;
}

function pyStr(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    const short: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
    if (short[ch]) out += short[ch];
    else if (c < 0x20) out += '\\u' + c.toString(16).padStart(4, '0');
    else out += ch;
  }
  return out + '"';
}

function codePointCompare(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0) as number);
  const y = [...b].map((c) => c.codePointAt(0) as number);
  for (let k = 0; k < Math.min(x.length, y.length); k++) if (x[k] !== y[k]) return (x[k] as number) - (y[k] as number);
  return x.length - y.length;
}

/** `json.dumps(v, ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False)`. */
export function pyCanonicalDump(v: Py): string {
  switch (v.t) {
    case 'dict':
      return '{' + [...v.m.keys()].sort(codePointCompare).map((k) => pyStr(k) + ':' + pyCanonicalDump(v.m.get(k) as Py)).join(',') + '}';
    case 'list':
      return '[' + v.a.map(pyCanonicalDump).join(',') + ']';
    case 'str':
      return pyStr(v.v);
    case 'int':
      return v.v.toString();
    case 'float':
      return pyFloatRepr(v.v);
    case 'bool':
      return v.v ? 'true' : 'false';
    case 'none':
      return 'null';
  }
}

const TOKEN = /^[A-Za-z0-9](?:[A-Za-z0-9._:-]{0,127})?$/;
const FIELDS = ['created_at', 'id', 'kind', 'name', 'namespace', 'payload', 'payload_sha256', 'session_id', 'source_ref'];

function text(v: Py | undefined, field: string, max: number, nullable: boolean): void {
  if (nullable && v?.t === 'none') return;
  if (v?.t !== 'str' || v.v.length === 0 || [...v.v].length > max || /[\u0000-\u001f]/.test(v.v)) throw new Error(`${field} invalid`);
}

/**
 * Applies the reference's import checks to bundle text; returns the item ids (bundle order) or
 * throws an Error naming the first rule broken.
 */
export function pythonAcceptsBundle(bundleText: string): number[] {
  const bundle = pyLoads(bundleText);
  if (bundle.t !== 'dict') throw new Error('Import bundle must be an object');
  const schema = bundle.m.get('schema');
  if (schema?.t !== 'str' || schema.v !== 'ellmos.session-checkpoint-export.v1') throw new Error('Unsupported checkpoint export schema');
  const version = bundle.m.get('store_schema_version');
  const one = version !== undefined && ((version.t === 'int' && version.v === 1n) || (version.t === 'float' && version.v === 1) || (version.t === 'bool' && version.v));
  if (!one) throw new Error('Unsupported checkpoint store schema version');
  const items = bundle.m.get('checkpoints');
  if (items?.t !== 'list') throw new Error('Import bundle checkpoints must be an array');
  if (items.a.length > 1000) throw new Error('Import bundle contains more than 1000 checkpoints');
  let aggregate = 0;
  const ids: number[] = [];
  const refs = new Set<string>();
  for (const item of items.a) {
    if (item.t !== 'dict') throw new Error('Every imported checkpoint must be an object');
    if ([...item.m.keys()].sort().join() !== FIELDS.join()) throw new Error('Imported checkpoint fields must be exactly [...]');
    const f = (k: string) => item.m.get(k) as Py;
    const created = f('created_at');
    // The reference would turn null into "now"; a bundle of ours must never rely on that.
    if (created.t !== 'str' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(created.v)) throw new Error('created_at invalid');
    const payload = f('payload');
    if (payload.t !== 'dict') throw new Error('payload must be a JSON object');
    const canonical = pyCanonicalDump(payload);
    const bytes = Buffer.byteLength(canonical, 'utf8');
    if (bytes > 1_048_576) throw new Error('payload exceeds the 1048576-byte carrier limit');
    const ns = f('namespace');
    const kind = f('kind');
    if (ns.t !== 'str' || !TOKEN.test(ns.v)) throw new Error('namespace invalid');
    text(f('session_id'), 'session_id', 512, false);
    if (kind.t !== 'str' || !TOKEN.test(kind.v)) throw new Error('kind invalid');
    const name = f('name');
    if (!(name.t === 'none' || (name.t === 'str' && name.v === ''))) text(name, 'name', 256, false);
    text(f('source_ref'), 'source_ref', 256, true);
    const hash = f('payload_sha256');
    if (hash.t !== 'str' || hash.v !== createHash('sha256').update(canonical, 'utf8').digest('hex')) throw new Error('payload hash mismatch');
    const id = f('id');
    if (id.t !== 'int' || id.v <= 0n) throw new Error('id must be a positive integer');
    aggregate += bytes;
    if (aggregate > 16_777_216) throw new Error('aggregate payload exceeds the limit');
    ids.push(Number(id.v));
    const ref = f('source_ref');
    if (ref.t === 'str') {
      const key = JSON.stringify([ns.v, ref.v]);
      if (refs.has(key)) throw new Error('duplicate namespace/source_ref pairs');
      refs.add(key);
    }
  }
  if (new Set(ids).size !== ids.length) throw new Error('duplicate checkpoint ids');
  return ids;
}
