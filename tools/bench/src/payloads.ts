/** Deterministic payloads of a given JSON size, shaped like an agent's state (messages and metadata). */
export function agentState(bytes: number, seed = 0): Record<string, unknown> {
  const messages: { role: string; content: string; tokens: number }[] = [];
  const state = { thread: `t-${seed}`, step: seed, score: 0.5 + (seed % 7) / 10, messages, meta: { model: 'bench', tags: ['a', 'b'] } };
  let size = JSON.stringify(state).length;
  let i = 0;
  while (size < bytes) {
    const content = `message ${i} of step ${seed}: `.padEnd(Math.min(200, bytes - size + 10), 'lorem ipsum ');
    messages.push({ role: i % 2 ? 'assistant' : 'user', content, tokens: content.length >> 2 });
    size += content.length + 45;
    i++;
  }
  return state;
}

/** UTF-8 size of a payload as JSON.stringify writes it. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}
