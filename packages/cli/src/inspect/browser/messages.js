// Messages as a person reads them: who spoke and what was said, from LangChain's serialised form
// ({lc, type: "constructor", id, kwargs}), role-style messages ({role, content}) and OpenAI Agents
// items. The raw form of each stays one click away (its "raw" button opens the JSON tree).
import { html, useState } from './preact.js';
import { TreeNode } from './tree.js';

const LC_ROLES = { HumanMessage: 'human', AIMessage: 'ai', SystemMessage: 'system', ToolMessage: 'tool', FunctionMessage: 'function', ChatMessage: 'chat', RemoveMessage: 'remove' };

const record = (v) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? v : undefined);

function contentText(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  return content.map((part) => (typeof part === 'string' ? part : typeof record(part)?.text === 'string' ? part.text : '')).filter((t) => t !== '').join(' ');
}

/** A message as `{ role, text }`, or `null` when the value is not a message (same rules as the CLI's previews, text not cut). */
export function messageOf(message) {
  const m = record(message);
  if (m === undefined) return null;
  if (m.lc !== undefined && m.type === 'constructor' && Array.isArray(m.id)) {
    const cls = String(m.id[m.id.length - 1] ?? '').replace(/Chunk$/, '');
    const kwargs = record(m.kwargs) ?? {};
    let text = contentText(kwargs.content) ?? '';
    const calls = Array.isArray(kwargs.tool_calls) ? kwargs.tool_calls.filter((c) => record(c)) : [];
    if (text.trim() === '' && calls.length > 0) text = calls.map((c) => `${c.name}(${JSON.stringify(c.args ?? {})})`).join(' ');
    return { role: LC_ROLES[cls] ?? cls, text };
  }
  if (typeof m.role === 'string') return { role: m.role, text: contentText(m.content) ?? '' };
  if (typeof m.type === 'string' && (typeof m.name === 'string' || m.output !== undefined)) {
    return { role: m.type, text: m.arguments !== undefined ? `${m.name}(${m.arguments})` : JSON.stringify(m.output ?? '') };
  }
  if (typeof m.type === 'string' && m.content !== undefined) return { role: m.type, text: contentText(m.content) ?? '' };
  return null;
}

/** Whether a value is a non-empty list of messages. */
export function isMessageList(value) {
  return Array.isArray(value) && value.length > 0 && value.every((item) => messageOf(item) !== null);
}

function Message({ value, path, index }) {
  const [raw, setRaw] = useState(false);
  const m = messageOf(value);
  return html`<li class=${`message role-${m.role}`} data-role=${m.role} data-path=${path}>
    <div class="message-head"><span class="role">${m.role}</span><span class="index">#${index}</span>
      <button class="raw-toggle" data-raw-toggle aria-pressed=${raw} onClick=${() => setRaw(!raw)}>${raw ? 'hide raw' : 'raw'}</button></div>
    <div class="text">${m.text.length > 4000 ? `${m.text.slice(0, 4000)}… (${m.text.length} chars)` : m.text}</div>
    ${raw ? html`<div class="tree raw"><${TreeNode} name=${String(index)} value=${value} path=${path} openDepth=${3} /></div>` : null}
  </li>`;
}

/** A list of messages, each as role and text with its raw form behind a button. */
export function Messages({ list, path, label }) {
  return html`<section class="messages" data-messages-path=${path}>
    <h3>${label} <span class="count">${list.length}</span></h3>
    <ol>${list.map((value, i) => html`<${Message} key=${i} value=${value} index=${i} path=${`${path}/${i}`} />`)}</ol>
  </section>`;
}
