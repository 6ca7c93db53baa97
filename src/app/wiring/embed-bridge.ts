// The postMessage API for a page that embeds the app in an iframe. Only origins
// listed in the site's `embed.json` may drive it; messages from anywhere else are
// ignored and logged, and replies go only to the origin that asked.
import { EMBED_PROTOCOL_VERSION, type EmbedReply, type EmbedRequest } from '../view/embed-messages';

/**
 * Exact http(s) origins from a list; anything else (paths are cut, `null`,
 * `javascript:`) is dropped, since opaque origins can never be allowed.
 */
export function parseAllowedOrigins(values: readonly unknown[]): string[] {
  const out = new Set<string>();
  for (const v of values) {
    if (typeof v !== 'string') continue;
    try {
      const u = new URL(v.trim());
      if ((u.protocol === 'http:' || u.protocol === 'https:') && u.origin !== 'null') out.add(u.origin);
    } catch {
      // not a URL: ignored
    }
  }
  return [...out];
}

/**
 * The origins allowed to drive the app come from `embed.json` beside the page,
 * a file only the site's owner controls. Never from the URL: whoever embeds the
 * page chooses its URL, and could then read answers drawn from the visitor's library.
 */
export async function loadAllowedOrigins(baseURI: string, fetcher: typeof fetch = fetch): Promise<string[]> {
  try {
    const res = await fetcher(new URL('embed.json', baseURI), { cache: 'no-cache' });
    if (!res.ok) return [];
    const config = (await res.json()) as { allowedOrigins?: unknown };
    return Array.isArray(config.allowedOrigins) ? parseAllowedOrigins(config.allowedOrigins) : [];
  } catch {
    return [];
  }
}

export function parseRequest(data: unknown): EmbedRequest | string {
  if (data === null || typeof data !== 'object') return 'message is not an object';
  const d = data as Record<string, unknown>;
  const id = typeof d.id === 'string' ? d.id : undefined;
  if (d.type === 'ping') return { type: 'ping', id };
  if (d.type === 'ask') {
    if (typeof d.question !== 'string' || !d.question.trim()) return 'ask needs a non-empty string `question`';
    return { type: 'ask', question: d.question.trim().slice(0, 2000), id };
  }
  if (d.type === 'theme') {
    if (d.theme !== 'light' && d.theme !== 'dark' && d.theme !== 'system')
      return 'theme must be "light", "dark" or "system"';
    return { type: 'theme', theme: d.theme, id };
  }
  return `unknown message type ${JSON.stringify(String(d.type))}`;
}

interface MessageSourceLike {
  postMessage(message: unknown, targetOrigin: string): void;
}

export interface EmbedHost {
  addEventListener(type: 'message', fn: (e: MessageEvent) => void): void;
  removeEventListener(type: 'message', fn: (e: MessageEvent) => void): void;
  /** The embedding page's window (window.parent); equal to self when not framed. */
  parent: MessageSourceLike;
}

export interface EmbedBridge {
  reply(to: { origin: string; id?: string }, msg: EmbedReply): void;
  /** A message for whichever allowed origin embeds the page (the browser drops it for any other). */
  announce(msg: EmbedReply): void;
  dispose(): void;
}

export function createEmbedBridge(opts: {
  host: EmbedHost;
  allowed: string[];
  onRequest: (req: EmbedRequest, from: { origin: string; id?: string }) => void;
  log?: (message: string) => void;
}): EmbedBridge {
  const { host, allowed } = opts;
  const log = opts.log ?? ((m: string) => console.warn(m));
  const reply = (to: { origin: string; id?: string }, msg: EmbedReply) => {
    host.parent.postMessage(msg, to.origin);
  };
  const refusedLogged = new Set<string>();
  const onMessage = (e: MessageEvent) => {
    if (!allowed.includes(e.origin)) {
      if (!refusedLogged.has(e.origin)) {
        refusedLogged.add(e.origin);
        log(`[embed] refused messages from ${e.origin || 'an opaque origin'}: not in allowedOrigins of embed.json`);
      }
      // The embedding page hears why at once (nothing from the library goes with it); an opaque origin cannot be addressed.
      if (e.source === host.parent && e.origin && e.origin !== 'null') {
        const id =
          e.data && typeof e.data === 'object' && typeof (e.data as { id?: unknown }).id === 'string'
            ? (e.data as { id: string }).id
            : undefined;
        reply(
          { origin: e.origin },
          {
            type: 'refused',
            ...(id !== undefined ? { id } : {}),
            origin: e.origin,
            message: `This app answers only the sites listed in allowedOrigins of its embed.json, and ${e.origin} is not one of them.`,
          },
        );
      }
      return;
    }
    // Another window of an allowed origin (a popup, a sibling frame) is not the embedder.
    if (e.source !== host.parent) {
      log(`[embed] ignored a message from ${e.origin}: not sent by the embedding page`);
      return;
    }
    const req = parseRequest(e.data);
    if (typeof req === 'string') {
      reply({ origin: e.origin }, { type: 'error', message: req });
      return;
    }
    opts.onRequest(req, { origin: e.origin, id: req.id });
  };
  host.addEventListener('message', onMessage);
  const framed = host.parent !== (host as unknown);
  const announce = (msg: EmbedReply) => {
    if (framed) for (const origin of allowed) host.parent.postMessage(msg, origin);
  };
  announce({ type: 'ready', version: EMBED_PROTOCOL_VERSION });
  return { reply, announce, dispose: () => host.removeEventListener('message', onMessage) };
}
