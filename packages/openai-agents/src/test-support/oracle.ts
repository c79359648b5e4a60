import { MemorySession, UserError, type AgentInputItem } from '@openai/agents';
import type { CheckpointStore } from '@session-checkpoint/core';
import fc from 'fast-check';
import { expect } from 'vitest';
import { CheckpointSession } from '../index.js';
import { comparable } from './comparable.js';

/*
 * The differential oracle: random sequences of session calls run against a CheckpointSession and
 * against the SDK's MemorySession, every answer compared (results, and whether and how each call
 * failed), the whole history compared after every call. Compaction has no MemorySession method:
 * its reference is "pop everything, add the new history", which keeps the operation records as
 * CheckpointSession keeps them.
 */

/** What the oracle holds on each side: the reference, and our session on a store. */
export interface Model {
  ref: MemorySession;
}
export interface Real {
  store: CheckpointStore;
  sessionId: string;
  session: CheckpointSession;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

async function outcome(call: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    return { ok: false, error };
  }
}

function describeOutcome(o: Outcome): string {
  return o.ok ? 'returned' : `threw ${(o.error as Error)?.constructor?.name}: ${(o.error as Error)?.message}`;
}

/** Runs one call on both sides and compares the answers, then the whole histories. */
async function compare(model: Model, real: Real, what: string, ours: () => Promise<unknown>, theirs: () => Promise<unknown>): Promise<void> {
  const [a, b] = [await outcome(ours), await outcome(theirs)];
  expect(a.ok, `${what}: ours ${describeOutcome(a)}, MemorySession ${describeOutcome(b)}`).toBe(b.ok);
  if (a.ok && b.ok) expect(comparable(a.value), what).toEqual(comparable(b.value));
  if (!a.ok && !b.ok) expect(a.error instanceof UserError, `${what}: ${describeOutcome(a)} / ${describeOutcome(b)}`).toBe(b.error instanceof UserError);
  expect(comparable(await real.session.getItems()), `history after ${what}`).toEqual(comparable(await model.ref.getItems()));
}

/** A command with a readable name (fast-check prints it in the counterexample). */
abstract class Cmd implements fc.AsyncCommand<Model, Real> {
  check(): boolean {
    return true;
  }
  abstract run(model: Model, real: Real): Promise<void>;
  abstract toString(): string;
}

const show = (items: readonly AgentInputItem[]): string => {
  const text = JSON.stringify(items.map((item) => comparable(item)));
  return text.length > 300 ? `${text.slice(0, 300)}…(${text.length} chars)` : text;
};

/** Deep changes to items a caller still holds: the sessions' histories must not follow. */
function scribble(items: unknown[]): void {
  for (const item of items) {
    if (item === null || typeof item !== 'object') continue;
    const record = item as Record<string, unknown>;
    record.content = 'scribbled';
    if (Array.isArray(record.output)) record.output.push({ type: 'text', text: 'scribbled' });
    if (record.providerData && typeof record.providerData === 'object') (record.providerData as Record<string, unknown>).scribbled = true;
  }
}

export class AddItems extends Cmd {
  constructor(readonly items: AgentInputItem[], readonly mutateAfter: boolean) {
    super();
  }
  async run(model: Model, real: Real): Promise<void> {
    // The same objects to both: each must take a snapshot.
    const items = this.items.map((item) => structuredClone(item));
    await compare(model, real, this.toString(), () => real.session.addItems(items), () => model.ref.addItems(items));
    if (this.mutateAfter) {
      scribble(items);
      expect(comparable(await real.session.getItems())).toEqual(comparable(await model.ref.getItems()));
    }
  }
  toString(): string {
    return `addItems(${show(this.items)}${this.mutateAfter ? ', then scribbled' : ''})`;
  }
}

export class PopItem extends Cmd {
  async run(model: Model, real: Real): Promise<void> {
    await compare(model, real, 'popItem()', () => real.session.popItem(), () => model.ref.popItem());
  }
  toString(): string {
    return 'popItem()';
  }
}

export class GetItems extends Cmd {
  constructor(readonly limit: number | undefined, readonly scribbleAfter: boolean, readonly fresh: boolean) {
    super();
  }
  async run(model: Model, real: Real): Promise<void> {
    const session = this.fresh ? new CheckpointSession(real.store, { sessionId: real.sessionId }) : real.session;
    const [ours, theirs] = [await session.getItems(this.limit), await model.ref.getItems(this.limit)];
    expect(comparable(ours), this.toString()).toEqual(comparable(theirs));
    if (this.scribbleAfter) {
      scribble(ours);
      scribble(theirs);
      expect(comparable(await real.session.getItems())).toEqual(comparable(await model.ref.getItems()));
    }
  }
  toString(): string {
    return `getItems(${String(this.limit)})${this.fresh ? ' on a fresh session object' : ''}${this.scribbleAfter ? ', then scribbled' : ''}`;
  }
}

export class Append extends Cmd {
  constructor(readonly operationId: string, readonly items: AgentInputItem[]) {
    super();
  }
  async run(model: Model, real: Real): Promise<void> {
    const args = { operationId: this.operationId, transaction: { type: 'append_items' as const, items: this.items } };
    await compare(model, real, this.toString(), () => real.session.applyHistoryTransaction(structuredClone(args)), () => model.ref.applyHistoryTransaction(structuredClone(args)));
  }
  toString(): string {
    return `applyHistoryTransaction(${JSON.stringify(this.operationId)}, append ${show(this.items)})`;
  }
}

export class ReplaceSuffix extends Cmd {
  constructor(readonly operationId: string, readonly suffixLength: number, readonly wrong: boolean, readonly replacement: AgentInputItem[]) {
    super();
  }
  async run(model: Model, real: Real): Promise<void> {
    const held = this.suffixLength === 0 ? [] : await model.ref.getItems(this.suffixLength);
    const expectedSuffix = this.wrong ? [...held.slice(1), { role: 'user', content: 'never said' } as AgentInputItem] : held;
    const args = { operationId: this.operationId, transaction: { type: 'replace_suffix' as const, expectedSuffix, replacement: this.replacement } };
    await compare(model, real, this.toString(), () => real.session.applyHistoryTransaction(structuredClone(args)), () => model.ref.applyHistoryTransaction(structuredClone(args)));
  }
  toString(): string {
    return `applyHistoryTransaction(${JSON.stringify(this.operationId)}, replace the last ${this.suffixLength}${this.wrong ? ' (wrong suffix)' : ''} by ${show(this.replacement)})`;
  }
}

export class Compact extends Cmd {
  constructor(readonly items: AgentInputItem[]) {
    super();
  }
  async run(model: Model, real: Real): Promise<void> {
    const items = this.items.map((item) => structuredClone(item));
    await compare(
      model,
      real,
      this.toString(),
      () => real.session.replaceHistoryWithCompaction(items),
      async () => {
        while ((await model.ref.popItem()) !== undefined);
        await model.ref.addItems(items);
      },
    );
  }
  toString(): string {
    return `replaceHistoryWithCompaction(${show(this.items)})`;
  }
}

export class Mutate extends Cmd {
  constructor(readonly callId: string, readonly replacement: AgentInputItem) {
    super();
  }
  async run(model: Model, real: Real): Promise<void> {
    const args = { mutations: [{ type: 'replace_function_call' as const, callId: this.callId, replacement: this.replacement as never }] };
    await compare(model, real, this.toString(), () => real.session.applyHistoryMutations(structuredClone(args)), () => model.ref.applyHistoryMutations(structuredClone(args)));
  }
  toString(): string {
    return `applyHistoryMutations(replace_function_call ${this.callId} by ${show([this.replacement])})`;
  }
}

export class Clear extends Cmd {
  async run(model: Model, real: Real): Promise<void> {
    await compare(model, real, 'clearSession()', () => real.session.clearSession(), () => model.ref.clearSession());
  }
  toString(): string {
    return 'clearSession()';
  }
}

/**
 * Runs commands against a fresh session on `store` and a fresh MemorySession, both started with
 * `initialItems`. MemorySession holds them from its construction, CheckpointSession from its first
 * call (it writes them then): the setup makes that call, so that the fresh session objects some
 * commands read through (made without the option, as readers) find them too.
 */
export async function runCommands(store: CheckpointStore, sessionId: string, commands: Iterable<fc.AsyncCommand<Model, Real>>, initial: InitialItems = new InitialItems([])): Promise<void> {
  await fc.asyncModelRun(async () => {
    const session = new CheckpointSession(store, { sessionId, initialItems: initial.items.map((i) => structuredClone(i)) });
    await session.getSessionId();
    if (initial.items.length > 0) await session.getItems(0);
    return { model: { ref: new MemorySession({ sessionId, initialItems: initial.items.map((i) => structuredClone(i)) }) }, real: { store, sessionId, session } };
  }, commands);
}

/** The `initialItems` of a run, printed short in counterexamples. */
export class InitialItems {
  constructor(readonly items: AgentInputItem[]) {}
  [fc.toStringMethod](): string {
    return `initialItems ${show(this.items)}`;
  }
}

// ---- generators -------------------------------------------------------------------------------

const MiB = 1024 * 1024;
/** Any UTF-16 code unit: lone surrogates and control characters included. */
const anyText = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 12 });
const text = fc.oneof({ weight: 3, arbitrary: fc.string({ maxLength: 12 }) }, { weight: 1, arbitrary: anyText }, { weight: 1, arbitrary: fc.constantFrom('🧭', '🧭'.slice(0, 1), 'a\u0000b', '"\\') });
/** A string over 1 MiB: few, so CI stays bounded. */
const large = fc.tuple(fc.integer({ min: MiB + 1, max: 2.5 * MiB }), fc.constantFrom('x', 'é', '🧭', '"')).map(([n, c]) => c.repeat(Math.ceil(n / c.length)));
const body = fc.oneof({ weight: 30, arbitrary: text }, { weight: 1, arbitrary: large });
const callId = fc.constantFrom('c1', 'c2', 'c3');
/** JSON data with awkward keys: own __proto__, constructor, empty. */
const data: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(text, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n)), fc.boolean(), fc.constant(null)),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.array(fc.tuple(fc.oneof(text, fc.constantFrom('__proto__', 'constructor', '')), tie('value')), { maxLength: 3 }).map((entries) => {
      const out: Record<string, unknown> = {};
      for (const [key, value] of entries) Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      return out;
    }),
  ),
})).value;
const bytes = fc.uint8Array({ maxLength: 16 });

/** One item of any kind the SDK stores, with random text, data, binary fields and sizes. */
export const item: fc.Arbitrary<AgentInputItem> = fc.oneof(
  fc.record({ role: fc.constant('user'), content: body }),
  fc.record({ type: fc.constant('message'), role: fc.constantFrom('system', 'developer', 'user'), content: body, providerData: fc.dictionary(fc.string({ maxLength: 4 }), data, { maxKeys: 2 }) }),
  fc.record({ type: fc.constant('message'), role: fc.constant('assistant'), status: fc.constant('completed'), content: fc.array(fc.record({ type: fc.constant('output_text'), text: body }), { minLength: 1, maxLength: 2 }) }),
  fc.record({ type: fc.constant('message'), role: fc.constant('user'), content: fc.array(fc.oneof(fc.record({ type: fc.constant('input_text'), text: body }), fc.record({ type: fc.constant('input_image'), image: body })), { maxLength: 2 }) }),
  fc.record({ type: fc.constant('function_call'), callId, name: fc.constant('f'), status: fc.constant('completed'), arguments: text }),
  fc.record({ type: fc.constant('function_call_result'), callId, name: fc.constant('f'), status: fc.constant('completed'), output: fc.oneof(body, fc.record({ type: fc.constant('text'), text: body })) }),
  fc.record({ type: fc.constant('function_call_result'), callId, name: fc.constant('snap'), status: fc.constant('completed'), output: fc.array(fc.record({ type: fc.constant('image'), image: fc.record({ data: bytes, mediaType: fc.constant('image/png') }) }), { maxLength: 2 }) }),
  fc.record({ type: fc.constant('reasoning'), content: fc.array(fc.record({ type: fc.constant('input_text'), text }), { maxLength: 2 }) }),
  fc.record({ type: fc.constant('shell_call'), callId, status: fc.constant('completed'), action: fc.record({ commands: fc.array(text, { maxLength: 2 }) }) }),
  fc.record({ type: fc.constant('shell_call_output'), callId, output: fc.array(fc.record({ stdout: body, stderr: text, outcome: fc.record({ type: fc.constant('exit'), exitCode: fc.integer({ min: 0, max: 255 }) }) }), { maxLength: 1 }) }),
  fc.record({ type: fc.constant('compaction'), encrypted_content: text }),
  fc.record({ type: fc.constant('unknown'), providerData: data }),
  // Not a model item: addItems takes it (as MemorySession does), a transaction refuses it.
  fc.record({ type: fc.constantFrom('bogus', 'message\u0001'), providerData: data }),
  fc.constant({}),
) as fc.Arbitrary<AgentInputItem>;

/** An item with an array hole (addItems only: MemorySession refuses holes in a transaction, and so do we). */
const withHole = item.map((value) => {
  return { ...value, providerData: { list: [1, , 3] } } as AgentInputItem;
});

const items = fc.array(fc.oneof({ weight: 10, arbitrary: item }, { weight: 1, arbitrary: withHole }), { maxLength: 4 });

/** The `initialItems` of a run: none most often. */
export const initialItems: fc.Arbitrary<InitialItems> = fc
  .oneof({ weight: 3, arbitrary: fc.constant<AgentInputItem[]>([]) }, { weight: 1, arbitrary: fc.array(item, { minLength: 1, maxLength: 3 }) })
  .map((list) => new InitialItems(list));
const operationId = fc.constantFrom('op-1', 'op-2', 'op-3', '🧭'.slice(0, 1), 'op\u0000nul');

/** Every command, weighted toward the common ones. */
export const commands: fc.Arbitrary<Iterable<fc.AsyncCommand<Model, Real>>> = fc.commands(
  [
    // Appends weigh most, so histories grow long enough for limits, suffixes and mutations to bite.
    fc.tuple(items, fc.boolean()).map(([list, mutate]) => new AddItems(list, mutate)),
    fc.tuple(items, fc.boolean()).map(([list, mutate]) => new AddItems(list, mutate)),
    fc.tuple(items, fc.constant(false)).map(([list, mutate]) => new AddItems(list, mutate)),
    fc.constant(new PopItem()),
    fc.tuple(fc.option(fc.constantFrom(-1, 0, 1, 2, 3, 5, 8, 100, 2.5, 4.2, NaN), { nil: undefined }), fc.boolean(), fc.boolean()).map(([limit, scribbleAfter, fresh]) => new GetItems(limit, scribbleAfter, fresh)),
    fc.tuple(operationId, fc.array(item, { maxLength: 3 })).map(([id, list]) => new Append(id, list)),
    fc.tuple(operationId, fc.integer({ min: 0, max: 3 }), fc.boolean(), fc.array(item, { maxLength: 3 })).map(([id, k, wrong, list]) => new ReplaceSuffix(id, k, wrong, list)),
    fc.array(item, { maxLength: 3 }).map((list) => new Compact(list)),
    fc.tuple(callId, item).map(([id, replacement]) => new Mutate(id, replacement)),
    fc.constant(new Clear()),
  ],
  { maxCommands: 25 },
);
