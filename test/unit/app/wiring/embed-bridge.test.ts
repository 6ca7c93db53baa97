import { describe, expect, it } from 'vitest';
import {
  createEmbedBridge,
  loadAllowedOrigins,
  parseAllowedOrigins,
  type EmbedHost,
} from '../../../../src/app/wiring/embed-bridge';
import { EMBED_PROTOCOL_VERSION, type EmbedRequest } from '../../../../src/app/view/embed-messages';

function fakeHost() {
  const listeners = new Set<(e: MessageEvent) => void>();
  const sent: { message: unknown; origin: string }[] = [];
  const parent = { postMessage: (message: unknown, origin: string) => void sent.push({ message, origin }) };
  const host: EmbedHost = {
    addEventListener: (_t, fn) => void listeners.add(fn),
    removeEventListener: (_t, fn) => void listeners.delete(fn),
    parent,
  };
  const dispatch = (data: unknown, origin: string, source: unknown = parent) => {
    for (const fn of listeners) fn({ data, origin, source } as MessageEvent);
  };
  return { host, sent, dispatch, parent, listeners };
}

describe('embed bridge', () => {
  it('keeps only exact http(s) origins', () => {
    expect(
      parseAllowedOrigins(['https://a.example/path', 'http://b.example:8080', 'javascript:alert(1)', 'null', 42]),
    ).toEqual(['https://a.example', 'http://b.example:8080']);
    expect(parseAllowedOrigins([])).toEqual([]);
  });

  it("reads the allow-list from the site's embed.json and allows nothing when it is missing or malformed", async () => {
    const serving = (body: string, status = 200) =>
      (async () => new Response(body, { status })) as unknown as typeof fetch;
    const base = 'https://site.example/app/';
    expect(
      await loadAllowedOrigins(base, serving(JSON.stringify({ allowedOrigins: ['https://host.example/x'] }))),
    ).toEqual(['https://host.example']);
    expect(await loadAllowedOrigins(base, serving('not found', 404))).toEqual([]);
    expect(await loadAllowedOrigins(base, serving('{ broken'))).toEqual([]);
    expect(await loadAllowedOrigins(base, serving(JSON.stringify({ allowedOrigins: 'https://host.example' })))).toEqual(
      [],
    );
    const asked: string[] = [];
    const recording = (async (url: URL) => {
      asked.push(String(url));
      return new Response('{}');
    }) as unknown as typeof fetch;
    await loadAllowedOrigins(base, recording);
    expect(asked).toEqual(['https://site.example/app/embed.json']);
  });

  it('answers an allowed origin, and refuses an unknown one at once with the reason, asking nothing', () => {
    const { host, sent, dispatch } = fakeHost();
    const asked: EmbedRequest[] = [];
    const logs: string[] = [];
    const bridge = createEmbedBridge({
      host,
      allowed: ['https://ok.example'],
      onRequest: (req, from) => {
        asked.push(req);
        bridge.reply(from, { type: 'pong', id: from.id, version: EMBED_PROTOCOL_VERSION });
      },
      log: (m) => logs.push(m),
    });
    expect(sent).toEqual([
      { message: { type: 'ready', version: EMBED_PROTOCOL_VERSION }, origin: 'https://ok.example' },
    ]);
    sent.length = 0;

    dispatch({ type: 'ask', question: 'What is a tide?', id: 'e1' }, 'https://evil.example');
    dispatch({ type: 'ping' }, 'https://evil.example');
    expect(asked).toEqual([]);
    const message =
      'This app answers only the sites listed in allowedOrigins of its embed.json, and https://evil.example is not one of them.';
    expect(sent).toEqual([
      {
        message: { type: 'refused', id: 'e1', origin: 'https://evil.example', message },
        origin: 'https://evil.example',
      },
      { message: { type: 'refused', origin: 'https://evil.example', message }, origin: 'https://evil.example' },
    ]);
    // Logged once per origin, naming the setting as embed.json spells it.
    expect(logs).toEqual(['[embed] refused messages from https://evil.example: not in allowedOrigins of embed.json']);
    // Another window of a refused origin (not the embedder) hears nothing.
    sent.length = 0;
    dispatch({ type: 'ping' }, 'https://evil.example', { postMessage() {} });
    expect(sent).toEqual([]);

    dispatch({ type: 'ask', question: '  What is a tide? ', id: 'q1' }, 'https://ok.example');
    expect(asked).toEqual([{ type: 'ask', question: 'What is a tide?', id: 'q1' }]);
    expect(sent).toEqual([
      { message: { type: 'pong', id: 'q1', version: EMBED_PROTOCOL_VERSION }, origin: 'https://ok.example' },
    ]);
  });

  it('rejects a malformed message with an error reply, and a message from another window of an allowed origin', () => {
    const { host, sent, dispatch } = fakeHost();
    const asked: EmbedRequest[] = [];
    const logs: string[] = [];
    createEmbedBridge({
      host,
      allowed: ['https://ok.example'],
      onRequest: (r) => asked.push(r),
      log: (m) => logs.push(m),
    });
    sent.length = 0;
    dispatch({ type: 'ask', question: 42 }, 'https://ok.example');
    expect(sent[0]?.message).toMatchObject({ type: 'error' });
    dispatch({ type: 'ask', question: 'hi' }, 'https://ok.example', { postMessage() {} });
    expect(asked).toEqual([]);
    expect(logs.length).toBe(1);
  });

  it('stops listening when disposed', () => {
    const { host, listeners } = fakeHost();
    const bridge = createEmbedBridge({ host, allowed: [], onRequest: () => undefined, log: () => undefined });
    expect(listeners.size).toBe(1);
    bridge.dispose();
    expect(listeners.size).toBe(0);
  });
});
