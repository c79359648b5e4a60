// Module hooks (registered by load-log.mjs) that append every ESM URL the child loads to the file
// named by SC_LOAD_LOG. They run on Node's loader thread, hence a file rather than a variable.
import { appendFileSync } from 'node:fs';

export async function load(url, context, nextLoad) {
  appendFileSync(process.env.SC_LOAD_LOG, `${url}\n`);
  return nextLoad(url, context);
}
