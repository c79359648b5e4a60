// A library user opening a PostgreSQL store against a server that terminates the new connection
// in the very packet that finishes its start-up: AuthenticationOk, ReadyForQuery and a FATAL
// ErrorResponse (57P01, as pg_terminate_backend sends) in one TCP write. The peer is this
// script's own: a real server cannot be made to put both in one packet on demand. pg hands the
// connection out while it still parses that packet, so its FATAL is emitted before the caller's
// `await` resumes. The outcome is one JSON line on stdout: what openPostgresStore threw (or that it
// did not); a crash (an 'error' event nobody heard) ends the process with no such line.
import { createServer } from 'node:net';
import { openPostgresStore } from '@session-checkpoint/store-kysely';

/** A backend message: type byte, int32 length (itself included), body. */
function message(type, body) {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

const int32 = (n) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};
const fields = (pairs) => Buffer.concat([...pairs.map(([code, text]) => Buffer.from(`${code}${text}\0`, 'utf8')), Buffer.from([0])]);

const startupDone = Buffer.concat([
  message('R', int32(0)), // AuthenticationOk
  message('Z', Buffer.from('I')), // ReadyForQuery, idle
  message('E', fields([['S', 'FATAL'], ['V', 'FATAL'], ['C', '57P01'], ['M', 'terminating connection due to administrator command']])),
]);

const server = createServer((socket) => {
  socket.once('data', (first) => {
    // An SSLRequest (int32 8, code 80877103) is refused with 'N'; the start-up message follows.
    if (first.length === 8 && first.readInt32BE(4) === 80877103) {
      socket.write('N');
      socket.once('data', () => socket.end(startupDone));
      return;
    }
    socket.end(startupDone);
  });
  socket.on('error', () => undefined);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address();

let outcome;
try {
  const store = await openPostgresStore(`postgres://postgres@127.0.0.1:${port}/test?sslmode=disable`, { poolSize: 1, connectTimeoutMs: 5_000 });
  await store.close();
  outcome = { rejected: false };
} catch (error) {
  outcome = { rejected: true, name: error?.name, code: error?.code, retryable: error?.retryable, message: String(error?.message) };
}
server.close();
process.stdout.write(`${JSON.stringify(outcome)}\n`);
process.exit(0);
