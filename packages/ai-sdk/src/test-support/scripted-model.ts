import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';

/** A model that streams each answer of `answers` in turn, in two text deltas, and records the prompts it got. */
export function scriptedModel(answers: string[]): MockLanguageModelV4 & { prompts: unknown[] } {
  let turn = 0;
  const prompts: unknown[] = [];
  const model = new MockLanguageModelV4({
    doStream: async (options) => {
      prompts.push(options.prompt);
      const text = answers[turn++ % answers.length] ?? '';
      const half = Math.ceil(text.length / 2);
      const parts = [
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: text.slice(0, half) },
        { type: 'text-delta', id: 't', delta: text.slice(half) },
        { type: 'text-end', id: 't' },
        {
          type: 'finish',
          finishReason: { unified: 'stop', raw: 'stop' },
          usage: { inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 2, text: 2, reasoning: undefined } },
        },
      ];
      // The stream parts of the model specification (LanguageModelV4StreamPart), as plain objects.
      return { stream: convertArrayToReadableStream(parts) as never };
    },
  });
  return Object.assign(model, { prompts });
}
