import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { MemorySaver, emptyCheckpoint, type BaseCheckpointSaver, type Checkpoint } from '@langchain/langgraph-checkpoint';
import Database from 'better-sqlite3';

/*
 * LangGraph's checkpointers, the ones TypeScript agent builders use today. SqliteSaver sets WAL
 * itself; we set `synchronous` to match the durability being compared.
 */

/** A saver with helpers that speak in thread ids and plain payloads. */
export class LangGraphPeer {
  readonly saver: BaseCheckpointSaver;
  readonly #db: Database.Database | undefined;
  #step = 0;

  private constructor(saver: BaseCheckpointSaver, db?: Database.Database) {
    this.saver = saver;
    this.#db = db;
  }

  /** SqliteSaver on a file, with `synchronous` matching `durability`. */
  static sqlite(path: string, durability: 'full' | 'normal'): LangGraphPeer {
    const db = new Database(path);
    const saver = new SqliteSaver(db);
    // setup() runs lazily on first use and sets WAL; run it now so the pragma below sticks.
    (saver as unknown as { setup(): void }).setup();
    db.pragma(`synchronous = ${durability === 'full' ? 'FULL' : 'NORMAL'}`);
    return new LangGraphPeer(saver, db);
  }

  /** The in-memory saver. */
  static memory(): LangGraphPeer {
    return new LangGraphPeer(new MemorySaver());
  }

  async put(threadId: string, payload: object): Promise<void> {
    const checkpoint: Checkpoint = { ...emptyCheckpoint(), id: String(this.#step++).padStart(20, "0"), channel_values: { state: payload } };
    await this.saver.put({ configurable: { thread_id: threadId, checkpoint_ns: '' } }, checkpoint, { source: 'loop', step: this.#step, parents: {} }, {});
  }

  async getTuple(threadId: string): Promise<unknown> {
    const tuple = await this.saver.getTuple({ configurable: { thread_id: threadId, checkpoint_ns: '' } });
    if (!tuple) throw new Error('missing checkpoint');
    return tuple.checkpoint.channel_values;
  }

  async list(threadId: string, limit: number): Promise<number> {
    let n = 0;
    for await (const tuple of this.saver.list({ configurable: { thread_id: threadId, checkpoint_ns: '' } }, { limit })) {
      if (tuple.checkpoint) n++;
    }
    return n;
  }

  close(): void {
    this.#db?.close();
  }
}
