// A writer process for the concurrency test: opens the store, then saves `turns` lists of the chat,
// each the chat it last loaded plus two messages of its own (as a chat tab would), and prints one
// JSON line per save with its result. Args: <target> <chatId> <writer> <turns>.
import { openPostgresStore, openSqliteStore } from '@session-checkpoint/store-kysely';
import { createChatStore } from '../../dist/index.js';

const [target, chatId, writer, turns] = process.argv.slice(2);
const store = target.startsWith('sqlite:')
  ? await openSqliteStore(target.slice('sqlite:'.length))
  : await openPostgresStore(process.env.SC_PG_URL ?? '', { schema: target.slice('postgres:'.length), poolSize: 2 });
const chats = createChatStore(store);
const text = (id, role, words) => ({ id, role, parts: [{ type: 'text', text: words }] });
for (let t = 0; t < Number(turns); t++) {
  const loaded = await chats.loadChat(chatId);
  const mine = [text(`${writer}-u${t}`, 'user', `question ${t} from ${writer}`), text(`${writer}-a${t}`, 'assistant', `answer ${t} to ${writer}`)];
  const result = await chats.saveChat({ chatId, messages: [...loaded, ...mine] });
  console.log(JSON.stringify({ writer, t, ...result }));
}
await store.close();
