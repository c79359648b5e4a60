import { AGENTS_NAMESPACE } from '@session-checkpoint/openai-agents/rows';
import { LANGGRAPH_NAMESPACE } from '@session-checkpoint/langgraph/rows';
import { FRAMEWORK_NAMESPACES } from './framework-families.js';
import type { Family } from './types.js';

/** The store namespace each family writes to unless told otherwise (plain checkpoints: the CLI's `default`; `ai-sdk-chats`, `mastra`). */
export const DEFAULT_NAMESPACES: Readonly<Record<Family, string>> = {
  langgraph: LANGGRAPH_NAMESPACE,
  'openai-agents': AGENTS_NAMESPACE,
  checkpoints: 'default',
  ...FRAMEWORK_NAMESPACES,
};
