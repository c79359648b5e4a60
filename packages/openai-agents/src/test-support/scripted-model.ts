import type { Model, ModelRequest, ModelResponse } from '@openai/agents-core';

const USAGE = { requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2, inputTokensDetails: [], outputTokensDetails: [] };

/** The text of the newest user message in a request's input. */
function lastUserText(input: ModelRequest['input']): string {
  if (typeof input === 'string') return input;
  for (const item of [...input].reverse()) {
    if ('role' in item && item.role === 'user') return typeof item.content === 'string' ? item.content : JSON.stringify(item.content);
  }
  return '';
}

/**
 * A model that answers without the network, deterministically from its input: a question with
 * "weather" in it gets a `get_weather` function call (with a reasoning item first), a tool result
 * gets a message quoting it, anything else an echo with the number of input items seen. Two
 * instances fed the same conversation produce the same items (ids count per instance).
 */
export class ScriptedModel implements Model {
  #calls = 0;

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const n = ++this.#calls;
    const input = typeof request.input === 'string' ? [{ role: 'user' as const, content: request.input }] : request.input;
    const last = input[input.length - 1];
    const output: ModelResponse['output'] = [];
    if (last && 'type' in last && last.type === 'function_call_result') {
      const result = last.output;
      output.push(message(n, `The tool said: ${typeof result === 'string' ? result : JSON.stringify(result)}`));
    } else if (lastUserText(request.input).includes('weather')) {
      output.push({ type: 'reasoning', id: `rs_${n}`, content: [{ type: 'input_text', text: 'The user wants the weather.' }] });
      output.push({ type: 'function_call', id: `fc_${n}`, callId: `call_${n}`, name: 'get_weather', status: 'completed', arguments: '{"city":"Paris"}' });
    } else {
      output.push(message(n, `Echo #${n} of ${input.length} items: ${lastUserText(request.input)}`));
    }
    return { usage: USAGE as unknown as ModelResponse['usage'], output, responseId: `resp_${n}` };
  }

  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('ScriptedModel does not stream');
  }
}

function message(n: number, text: string): ModelResponse['output'][number] {
  return { type: 'message', id: `msg_${n}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] };
}
