// The channel on which the e2e build's scripted generator tells the page under test what it was
// asked (engine-factory.ts posts each call): the engine runs in a worker, where a browser test
// cannot read its records. Its own file so node-side helpers can name it without the worker's double.
export const ENGINE_CALLS_CHANNEL = 'scripted-engine-calls';

/** One call as the page hears it: the chat's messages in order, or a raw completion's prompt. */
export interface HeardCall {
  kind: 'chat' | 'completion';
  messages: { role: string; content: string }[];
  prompt: string;
}
