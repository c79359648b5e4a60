import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { SessionCheckpointSaver } from '@session-checkpoint/langgraph';
import { openPostgresStore } from '@session-checkpoint/store-kysely';
import { openOurSqliteSaver, openSqliteSaver, type OpenSaver } from './saver-backends.js';

/*
 * The savers of the agents scenario (scenarios/agents.ts, agents-child.ts), each as a worker
 * process of a deployment opens it: one saver with the backend's default pool.
 */

/** What the parent asks of one child. */
export interface AgentsSpec {
  backend: 'SQLite' | 'PostgreSQL';
  which: 'ours' | 'peer';
  /** SQLite file. */
  path?: string;
  /** PostgreSQL URL and schema. */
  url?: string;
  schema?: string;
  /** One entry per agent: the thread it runs its turns on. */
  agents: { thread: string }[];
  turnsPerAgent: number;
}

/** What the child prints. */
export interface AgentsResult {
  /** Milliseconds of each successful turn. */
  latencies: number[];
  /** First line of each failed turn's error. */
  failures: string[];
}

/** The saver of `spec` (PostgresSaver's tables created first when `setup`) with the backend's default pool (ours: 10 connections; PostgresSaver: pg's default, 10). */
export async function openAgentsSaver(spec: Pick<AgentsSpec, 'backend' | 'which' | 'path' | 'url' | 'schema'>, setup = false): Promise<OpenSaver> {
  if (spec.backend === 'SQLite') return spec.which === 'ours' ? openOurSqliteSaver(spec.path!) : openSqliteSaver(spec.path!);
  if (spec.which === 'ours') {
    const store = await openPostgresStore(spec.url!, { schema: spec.schema! });
    return { saver: new SessionCheckpointSaver(store), close: () => store.close() };
  }
  const saver = PostgresSaver.fromConnString(spec.url!, { schema: spec.schema! });
  // PostgresSaver's setup() creates its tables and is not safe to run from several processes at once: the parent runs it.
  if (setup) await saver.setup();
  return { saver, close: () => saver.end() };
}
