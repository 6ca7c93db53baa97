// Embeds the Self-RAG app in a page of another site. The app's site serves this file;
// a host page includes it and calls embed():
//
//   <div id="rag"></div>
//   <script type="module">
//     import { embed } from 'https://rag.example.org/embed.js';
//     const rag = await embed(document.getElementById('rag'), { question: 'What is Self-RAG?', theme: 'light' });
//     const answer = await rag.ask('How are passages critiqued?');
//   </script>
//
// The host's origin must be listed in the app site's embed.json: the app answers no one
// else, and nothing passed here can change that list. Types: embed.d.ts beside this file.

const PROTOCOL_VERSION = 2;

/**
 * @param {HTMLElement} container where the frame goes (appended)
 * @param {import('./embed').EmbedOptions} [options]
 * @returns {Promise<import('./embed').EmbeddedApp>}
 */
export function embed(container, options = {}) {
  const app = new URL(options.app ?? './', import.meta.url);
  if (options.question) app.searchParams.set('q', options.question);
  const appOrigin = app.origin;

  const frame = document.createElement('iframe');
  frame.src = app.href;
  frame.title = options.title ?? 'Ask questions about the documents (Self-RAG)';
  // cross-origin-isolated: multi-threaded llama.cpp when this page is isolated too (see the README);
  // clipboard-write: the app's "Copy link" button.
  frame.allow = 'cross-origin-isolated; clipboard-write';
  frame.style.width = '100%';
  frame.style.border = '0';
  frame.style.height = `${options.height ?? 600}px`;
  container.append(frame);

  /** @type {Map<string, { question: string, resolve: (a: import('./embed').EmbedAnswer) => void, reject: (e: Error) => void }>} */
  const pending = new Map();
  let next = 0;
  let version = 0;
  let theme = options.theme;
  let started = false;
  let onReady = () => {};
  const ready = new Promise((resolve) => (onReady = resolve));
  /** @type {(e: Error) => void} */
  let onRefused = () => {};

  const post = (message) => frame.contentWindow?.postMessage(message, appOrigin);

  /** @param {MessageEvent} e */
  const onMessage = (e) => {
    if (e.source !== frame.contentWindow || e.origin !== appOrigin) return;
    const m = e.data;
    if (!m || typeof m !== 'object') return;
    if (m.type === 'ready' || m.type === 'pong') {
      version = typeof m.version === 'number' ? m.version : 1;
      // A second 'ready': the frame reloaded (the visitor granted Storage Access, or navigated).
      // The new page has not seen the theme, and a question asked meanwhile may have been lost.
      if (m.type === 'ready' && started) {
        if (theme) post({ type: 'theme', theme, version: PROTOCOL_VERSION });
        for (const [id, p] of pending) post({ type: 'ask', question: p.question, id, version: PROTOCOL_VERSION });
      }
      onReady();
    } else if (m.type === 'resize' && typeof m.height === 'number' && options.autoResize !== false) {
      frame.style.height = `${Math.max(options.minHeight ?? 200, Math.ceil(m.height))}px`;
    } else if ((m.type === 'answer' || m.type === 'error') && typeof m.id === 'string' && pending.has(m.id)) {
      const p = pending.get(m.id);
      pending.delete(m.id);
      if (m.type === 'answer')
        p.resolve({ question: m.question, segments: m.segments, aborted: m.aborted, evidenceOnly: m.evidenceOnly });
      else p.reject(new Error(m.message));
    } else if (m.type === 'refused' && typeof m.message === 'string') {
      // This page's origin is not in the app's embed.json: say so now rather than after the timeout.
      const err = new Error(m.message);
      for (const p of pending.values()) p.reject(err);
      pending.clear();
      onRefused(err);
    }
  };
  addEventListener('message', onMessage);

  // 'ready' is sent once, when the app starts; a host that missed it pings until answered.
  const ping = setInterval(() => post({ type: 'ping', version: PROTOCOL_VERSION }), 250);
  const timeoutMs = options.timeoutMs ?? 60_000;

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      clearInterval(ping);
      reject(
        new Error(
          `The app at ${appOrigin} did not answer within ${Math.round(timeoutMs / 1000)} s. Is ${location.origin} listed in its embed.json?`,
        ),
      );
    }, timeoutMs);
    onRefused = (err) => {
      clearTimeout(timer);
      clearInterval(ping);
      reject(err);
    };
    void ready.then(() => {
      clearTimeout(timer);
      clearInterval(ping);
      started = true;
      if (theme) post({ type: 'theme', theme, version: PROTOCOL_VERSION });
      resolve({
        frame,
        get version() {
          return version;
        },
        ask(question) {
          const id = `ask-${++next}`;
          return new Promise((res, rej) => {
            pending.set(id, { question, resolve: res, reject: rej });
            post({ type: 'ask', question, id, version: PROTOCOL_VERSION });
          });
        },
        setTheme(t) {
          theme = t;
          post({ type: 'theme', theme: t, version: PROTOCOL_VERSION });
        },
        destroy() {
          removeEventListener('message', onMessage);
          for (const p of pending.values()) p.reject(new Error('The embedded app was removed.'));
          pending.clear();
          frame.remove();
        },
      });
    });
  });
}
