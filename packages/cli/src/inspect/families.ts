import { AGENTS_NAMESPACE } from '@session-checkpoint/openai-agents/rows';
import { LANGGRAPH_NAMESPACE } from '@session-checkpoint/langgraph/rows';
import type { Family } from './types.js';

/** The store namespace each family writes to unless told otherwise (plain checkpoints: the CLI's `default`). */
export const DEFAULT_NAMESPACES: Readonly<Record<Family, string>> = {
  langgraph: LANGGRAPH_NAMESPACE,
  'openai-agents': AGENTS_NAMESPACE,
  checkpoints: 'default',
};
