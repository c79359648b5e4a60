/** The store namespace sessions live in unless told otherwise (the same value as `DEFAULT_NAMESPACE`). */
export const AGENTS_NAMESPACE = 'openai-agents';
