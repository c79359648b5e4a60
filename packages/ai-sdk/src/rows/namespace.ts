/** The store namespace chats live in unless told otherwise. */
export const AI_SDK_NAMESPACE = 'ai-sdk-chats';
/** Kind of a save row: one `saveChat` that changed the chat. */
export const SAVE_KIND = 'ai-sdk.save';
/** Kind of a part row: a slice of the messages text of a save larger than a row. */
export const PART_KIND = 'ai-sdk.part';
