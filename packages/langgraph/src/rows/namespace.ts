/** The store namespace the saver writes to unless told otherwise (`SessionCheckpointSaverOptions.namespace`). */
export const LANGGRAPH_NAMESPACE = 'langgraph';
