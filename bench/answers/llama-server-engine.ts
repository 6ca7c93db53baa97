// The app's llama.cpp engine interface (WllamaEngine: chatStream, complete, abort, tokenIds) over a
// native llama-server on loopback. wllama runs llama.cpp's own server code inside WebAssembly and
// hands it llama-server's JSON bodies unchanged (src/generator/wllama/protocol.ts), so the shipped
// WllamaGenerator drives a native server with the same requests and reads the same replies: the
// accuracy benches run the product's decoding on native llama.cpp, which writes the same text
// several times faster than the browser's WebAssembly build. Speed figures never come from here:
// answer time is measured through the page (bench/answer-cost.bench.ts).
//
// Bench tooling only: it needs a llama-server binary (LLAMA_SERVER, or on PATH) and is never part
// of the shipped app or of CI.
import { type ChildProcess, spawn } from 'node:child_process';
import { openAsBlob } from 'node:fs';
import { createServer } from 'node:net';
import type { WllamaEngine } from '../../src/generator/wllama/decoder';
import type { WllamaChatChunk, WllamaCompletionResponse, WllamaRequest } from '../../src/generator/wllama/protocol';
import { readVocab, tokenIds, type Vocab } from '../../workers/wllama/vocab';

export interface NativeServerOptions {
  model: string;
  threads: number;
  ctx?: number;
  /** Slots, as wllama starts llama.cpp with 4. */
  parallel?: number;
  binary?: string;
  log?: (line: string) => void;
}

export interface NativeServer {
  engine: WllamaEngine;
  url: string;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (a && typeof a === 'object' ? ok(a.port) : fail(new Error('no port'))));
    });
  });
}

/** Starts llama-server on the model and waits until it answers /health. */
export async function startNativeServer(o: NativeServerOptions): Promise<NativeServer> {
  const binary = o.binary ?? process.env.LLAMA_SERVER ?? 'llama-server';
  const port = await freePort();
  const args = [
    '-m',
    o.model,
    '--port',
    String(port),
    '--host',
    '127.0.0.1',
    '-t',
    String(o.threads),
    '-tb',
    String(o.threads),
    '-c',
    String(o.ctx ?? 4096 * (o.parallel ?? 4)),
    '-np',
    String(o.parallel ?? 4),
    '--kv-unified',
    '--cont-batching',
    '--no-webui',
  ];
  const child: ChildProcess = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  // A bench stopped with Ctrl-C or kill never reaches its `finally`: the server would run on,
  // holding both cores, under the next run. It goes with the bench.
  const orphaned = () => child.kill('SIGTERM');
  const stopped = (signal: NodeJS.Signals) => () => {
    orphaned();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  const onInt = stopped('SIGINT');
  const onTerm = stopped('SIGTERM');
  process.once('exit', orphaned);
  process.once('SIGINT', onInt);
  process.once('SIGTERM', onTerm);
  const errors: string[] = [];
  child.stderr?.on('data', (d: Buffer) => {
    const s = d.toString();
    errors.push(s);
    if (errors.length > 50) errors.shift();
  });
  let gone: string | null = null;
  const exited = new Promise<never>((_, fail) =>
    child.once('exit', (code, signal) => {
      gone = `llama-server exited (${code ?? signal}): ${errors.join('').slice(-2000)}`;
      fail(new Error(gone));
    }),
  );
  exited.catch(() => undefined);
  const url = `http://127.0.0.1:${port}`;
  const healthy = (async () => {
    for (;;) {
      try {
        const r = await fetch(`${url}/health`);
        if (r.ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  await Promise.race([healthy, exited]);
  o.log?.(`llama-server on ${url} (${o.model}, ${o.threads} threads)`);
  const vocab = await readVocab(await openAsBlob(o.model));
  return {
    url,
    // A request to a server that has died says why it died, not only "fetch failed".
    engine: httpEngine(url, vocab, () => gone),
    close: async () => {
      process.off('exit', orphaned);
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

/** The engine interface over a llama-server address. */
export function httpEngine(url: string, vocab: Vocab | null, died: () => string | null = () => null): WllamaEngine {
  const running = new Map<number, AbortController>();
  const request = async (id: number, path: string, body: WllamaRequest): Promise<Response> => {
    const ctrl = new AbortController();
    running.set(id, ctrl);
    const r = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: ctrl.signal,
    }).catch((e: unknown) => {
      const why = died();
      throw why ? new Error(why) : e;
    });
    if (!r.ok) throw new Error(`llama-server ${path}: ${r.status} ${await r.text()}`);
    return r;
  };
  return {
    async tokenIds(texts) {
      return vocab ? tokenIds(vocab, texts) : texts.map(() => null);
    },
    abort(id) {
      running.get(id)?.abort();
    },
    async complete(id, body) {
      try {
        const r = await request(id, '/v1/completions', { ...body, stream: false });
        return (await r.json()) as WllamaCompletionResponse;
      } finally {
        running.delete(id);
      }
    },
    async chatStream(id, body, onChunk) {
      try {
        const r = await request(id, '/v1/chat/completions', { ...body, stream: true });
        const reader = r.body!.getReader();
        const dec = new TextDecoder();
        let buf = '';
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          buf += dec.decode(value, { stream: true });
          // Server-sent events, line by line: only `data:` lines carry a chunk (`:` lines are comments).
          let nl = buf.indexOf('\n');
          while (nl >= 0) {
            const line = buf.slice(0, nl).trim();
            buf = buf.slice(nl + 1);
            nl = buf.indexOf('\n');
            if (line.startsWith('error:')) throw new Error(`llama-server: ${line.slice(6).trim()}`);
            if (!line.startsWith('data:')) continue;
            const data = line.slice(5).trim();
            if (!data || data === '[DONE]') continue;
            await onChunk(JSON.parse(data) as WllamaChatChunk);
          }
        }
      } catch (e) {
        // An abort is the caller's own: wllama reports it as an AbortError too.
        if ((e as Error).name === 'AbortError') throw Object.assign(new Error('aborted'), { name: 'AbortError' });
        throw e;
      } finally {
        running.delete(id);
      }
    },
  };
}
