import type { CheckpointStore } from '@session-checkpoint/core';

/*
 * Agents writing at once through one store, as the workers of a deployment do while the server
 * goes away: each agent, on its own session, commits a turn of two rows in one transaction (a
 * checkpoint and its piece), over and over, until stopped. Every outcome is recorded: the
 * acknowledged turns with their ids, and every failed call's error.
 */

/** A turn the store acknowledged: both rows committed. */
export interface AckedTurn {
  agent: number;
  step: number;
  ids: [number, number];
}

/** What the agents did. */
export interface AgentLoadReport {
  acked: AckedTurn[];
  errors: unknown[];
  /** Per agent: turns acknowledged after `markPhase` was last called. */
  ackedSincePhase: number[];
}

/** A running load; `stop` waits for every agent's call in flight. */
export interface AgentLoad {
  /** Acknowledged turns so far. */
  acked(): number;
  /** Starts counting each agent's acknowledged turns afresh (say, after a restart). */
  markPhase(): void;
  stop(): Promise<AgentLoadReport>;
}

export const NAMESPACE = 'agents';
export const sessionOf = (agent: number) => `agent-${agent}`;

/** Starts `count` agents on `store`; a failed call is followed by a 20 ms pause, then the next. */
export function startAgents(store: CheckpointStore, count: number): AgentLoad {
  const acked: AckedTurn[] = [];
  const errors: unknown[] = [];
  const since = new Array<number>(count).fill(0);
  let running = true;
  const agent = async (n: number) => {
    for (let step = 0; running; step++) {
      try {
        const ids = await store.transaction(async (tx) => {
          const a = await tx.create({ namespace: NAMESPACE, sessionId: sessionOf(n), payload: { agent: n, step, part: 'checkpoint' } });
          const b = await tx.create({ namespace: NAMESPACE, sessionId: sessionOf(n), payload: { agent: n, step, part: 'piece', of: a.id } });
          return [a.id, b.id] as [number, number];
        });
        acked.push({ agent: n, step, ids });
        since[n]!++;
      } catch (error) {
        errors.push(error);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  };
  const all = Promise.all(Array.from({ length: count }, (_, n) => agent(n)));
  return {
    acked: () => acked.length,
    markPhase: () => since.fill(0),
    async stop() {
      running = false;
      await all;
      return { acked, errors, ackedSincePhase: [...since] };
    },
  };
}

/** Resolves once `check` is true, polling every 10 ms. */
export async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Every error of a report that is not marked `retryable: true`, described. */
export function unretryable(errors: readonly unknown[]): string[] {
  return errors
    .filter((e) => (e as { retryable?: unknown })?.retryable !== true)
    .map((e) => (e instanceof Error ? `${e.name} ${(e as { code?: unknown }).code}: ${e.message}` : String(e)));
}

/**
 * Checks what the agents left: every acknowledged turn's two rows read back and verify, and
 * every turn on the server is whole (a checkpoint row has its piece and the other way round).
 * Returns problems found, none when all is well.
 */
export async function checkTurns(store: CheckpointStore, report: AgentLoadReport, agents: number): Promise<string[]> {
  const problems: string[] = [];
  for (const turn of report.acked) {
    for (const id of turn.ids) {
      const row = await store.get(id, { namespace: NAMESPACE }).catch((error: unknown) => error);
      if (row instanceof Error) problems.push(`acknowledged row ${id} of agent ${turn.agent} step ${turn.step}: ${row.message}`);
    }
  }
  for (let n = 0; n < agents; n++) {
    const rows = [];
    for (let offset = 0; ; offset += 500) {
      const page = await store.list({ namespace: NAMESPACE, sessionId: sessionOf(n), limit: 500, offset });
      rows.push(...page);
      if (page.length < 500) break;
    }
    const checkpoints = new Set(rows.filter((r) => (r.payload as { part: string }).part === 'checkpoint').map((r) => r.id));
    const pieces = rows.filter((r) => (r.payload as { part: string }).part === 'piece').map((r) => (r.payload as { of: number }).of);
    if (pieces.length !== checkpoints.size || pieces.some((of) => !checkpoints.has(of))) {
      problems.push(`agent ${n}: ${checkpoints.size} checkpoints and ${pieces.length} pieces, not in pairs`);
    }
  }
  const verify = await store.verify({ namespace: NAMESPACE });
  if (verify.failures.length > 0) problems.push(`verify: ${JSON.stringify(verify.failures.slice(0, 3))}`);
  return problems;
}
