import { Flags } from './flag-builders.js';
import { namespaceFlag } from './common-flags.js';

/**
 * The flags naming one thread, shared by `state` and `diff`: `--thread`, `--namespace`,
 * `--family` and `--checkpoint-ns`.
 *
 * @example
 * ```ts
 * static flags = { ...threadFlags() };
 * ```
 */
export function threadFlags() {
  return {
    thread: Flags.string({ description: 'The LangGraph thread id or the session id.', required: true }),
    namespace: namespaceFlag({ optional: true, description: "Store namespace. Default: the family's default namespace (langgraph, openai-agents, default)." }),
    family: Flags.string({ description: 'langgraph, openai-agents or checkpoints; needed only when the id names threads of several families.' }),
    'checkpoint-ns': Flags.string({ description: 'LangGraph checkpoint namespace (a subgraph). Default is "" (the root graph).' }),
  };
}
