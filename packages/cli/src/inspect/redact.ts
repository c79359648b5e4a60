/*
 * Redaction of a debug bundle before it leaves the machine (the inspector's "export" button).
 * Path rules decide what is masked: message contents and secret-looking fields by key, any extra
 * JSON-pointer patterns the user gives, and e-mail addresses and phone-like numbers inside any
 * other string. Structure is kept: objects keep their keys, arrays their length, ids and channel
 * names stay readable, so a bundle still shows *where* something went wrong.
 */

/** What replaces a masked string: its length stays visible, its text does not. */
export function maskedString(text: string): string {
  return `[redacted ${text.length} chars]`;
}

/** What replaces a masked number or boolean under a secret key. */
export const MASKED_SCALAR = '[redacted]';

/**
 * Keys whose string values are message text, prompts or tool payloads: masked (every string below
 * them too), structure kept. Matched case-insensitively against the whole key.
 */
const CONTENT_KEYS = new Set(['content', 'text', 'prompt', 'prompts', 'instructions', 'input', 'output', 'arguments', 'args', 'query', 'message', 'messages_text', 'body', 'summary', 'reasoning', 'refusal', 'transcript', 'data', 'image_url', 'file_data', 'audio']);

/**
 * Secret-looking keys: every scalar below them is masked. Matched on the key's last word
 * (`openai_api_key`, `x-auth-token`, `db_password`), so `total_tokens` or `token_count` stay.
 */
const SECRET_KEY = /(?:^|[_\-.])(?:api[_-]?key|apikey|token|access[_-]?token|refresh[_-]?token|id[_-]?token|password|passwd|pwd|secret|client[_-]?secret|authorization|auth|cookie|session[_-]?key|private[_-]?key|credentials?|bearer)$/iu;

/**
 * Keys that are always kept as they are under content keys too: identifiers, types and names
 * that tell what a piece is without saying what it says.
 */
const STRUCTURE_KEYS = /^(?:id|ids|type|role|name|status|channel|channels|call_id|tool_call_id|checkpoint_id|checkpoint_ns|thread_id|session_id|parent_checkpoint_id|task_id|lc|kind|format|mime_type|detail|index|step|source)$|_id$/iu;

/** A date (`2026-12-03`): digits and dashes like a phone number, but kept. */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/u;
/** E-mail addresses inside any string. */
const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.\p{L}{2,}/gu;
/**
 * Phone-like numbers: 7 or more digits with optional +, spaces, dots, dashes or brackets, standing
 * alone (not a run inside an id such as a UUID, nor a date or time next to `-` or `:`).
 */
const PHONE = /(?<![\p{L}\p{N}:_-])\+?\(?\d[\d ().-]{5,}\d(?![\p{L}\p{N}:_-])/gu;

/** Options of {@link redact}. */
export interface RedactOptions {
  /**
   * More JSON-pointer patterns to mask entirely (every scalar below), `*` matching one segment:
   * `/values/notes`, `/items/*\/metadata`. Default is none.
   */
  redact?: readonly string[];
  /**
   * JSON-pointer patterns to keep as they are, even under a content or secret key (the user knows
   * they are harmless): `/values/messages/*\/kwargs/content`. Default is none. A keep rule beats
   * every mask rule.
   */
  keep?: readonly string[];
}

/** How a value is being masked at one point of the walk. */
type Mode = 'none' | 'content' | 'secret' | 'id';

/** A compiled pointer pattern: its segments, `*` matching any one. */
type Pattern = readonly string[];

function compile(patterns: readonly string[] | undefined): Pattern[] {
  return (patterns ?? []).map((pattern) => {
    if (pattern === '') return [];
    if (!pattern.startsWith('/')) throw new RangeError(`a redaction rule is a JSON pointer starting with "/": ${JSON.stringify(pattern)}`);
    return pattern.slice(1).split('/').map((segment) => segment.replace(/~1/gu, '/').replace(/~0/gu, '~'));
  });
}

function matches(pattern: Pattern, path: readonly string[]): boolean {
  return pattern.length === path.length && pattern.every((segment, i) => segment === '*' || segment === path[i]);
}

/**
 * A string outside any masked key, with e-mail addresses and phone-like numbers replaced.
 *
 * @example
 * ```ts
 * scrubString('mail ann@example.com or +49 30 1234567'); // 'mail [email] or [phone]'
 * ```
 */
export function scrubString(text: string): string {
  return text.replace(EMAIL, '[email]').replace(PHONE, (match) => (ISO_DATE.test(match) ? match : '[phone]'));
}

/**
 * A copy of `value` with message contents and secret-looking fields masked by path rules:
 *
 * - under a content key (`content`, `text`, `prompt`, `input`, `output`, `arguments`, ...) every
 *   string is replaced by `[redacted N chars]`, except under structure keys (`id`, `type`, `role`,
 *   `name`, `*_id`, ...);
 * - under a secret-looking key (`api_key`, `token`, `password`, `secret`, `authorization`, ...)
 *   every string, number and boolean is masked;
 * - everywhere else, e-mail addresses and phone-like numbers inside strings are replaced by
 *   `[email]` and `[phone]`;
 * - `options.redact` patterns mask like a secret key, `options.keep` patterns keep as is.
 *
 * Objects keep their keys and arrays their length; numbers, booleans and `null` outside secret
 * keys are kept (sizes, counts and steps help to debug and say nothing private). The walk is
 * iterative-safe for deep values up to the stack depth of the JSON it came from.
 *
 * @example
 * ```ts
 * redact({ role: 'user', content: 'my card is 4111', api_key: 'sk-1' });
 * // { role: 'user', content: '[redacted 15 chars]', api_key: '[redacted]' }
 * ```
 */
export function redact(value: unknown, options: RedactOptions = {}): unknown {
  const extra = compile(options.redact);
  const keep = compile(options.keep);
  const walk = (node: unknown, path: string[], mode: Mode): unknown => {
    if (keep.some((pattern) => matches(pattern, path))) return node;
    const effective: Mode = extra.some((pattern) => matches(pattern, path)) ? 'secret' : mode;
    if (typeof node === 'string') {
      if (effective === 'id') return node;
      if (effective === 'none') return scrubString(node);
      return effective === 'secret' ? MASKED_SCALAR : maskedString(node);
    }
    if (typeof node === 'number' || typeof node === 'boolean') return effective === 'secret' ? MASKED_SCALAR : node;
    if (node === null || typeof node !== 'object') return node;
    if (Array.isArray(node)) return node.map((item, i) => walk(item, [...path, String(i)], effective));
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node)) {
      let childMode = effective;
      if (SECRET_KEY.test(key)) childMode = 'secret';
      else if (effective !== 'secret' && CONTENT_KEYS.has(key.toLowerCase())) childMode = 'content';
      // Identifiers and type names are kept exactly, wherever they are (no e-mail or phone scrub).
      else if (effective !== 'secret' && STRUCTURE_KEYS.test(key)) childMode = 'id';
      else if (effective === 'id') childMode = 'none';
      // Keys are structure: kept, except the e-mail or phone number a key might be.
      Object.defineProperty(out, scrubString(key), { value: walk(child, [...path, key], childMode), enumerable: true, writable: true, configurable: true });
    }
    return out;
  };
  return walk(value, [], 'none');
}
