// The embed bridge wired to the page: answers an allowed host's questions, follows its theme,
// and tells it the page's height whenever it changes, so the host can size the frame to fit.
import type { Controller } from './controller';
import { createEmbedBridge, loadAllowedOrigins, type EmbedBridge } from './embed-bridge';
import { EMBED_PROTOCOL_VERSION } from '../view/embed-messages';
import { answerMessage } from '../view/embed-answer';

export async function startEmbedBridge(controller: Controller, win: Window = window): Promise<EmbedBridge | null> {
  if (win.parent === win) return null;
  const allowed = await loadAllowedOrigins(win.document.baseURI);
  if (allowed.length === 0) return null;
  const bridge = createEmbedBridge({
    host: win,
    allowed,
    onRequest: (req, from) => {
      if (req.type === 'ping') return bridge.reply(from, { type: 'pong', id: req.id, version: EMBED_PROTOCOL_VERSION });
      if (req.type === 'theme') return controller.showHostTheme(req.theme);
      void controller.ask(req.question).then(() => {
        const s = controller.getState();
        bridge.reply(from, answerMessage(s.answer, req.id, s.evidenceOnly !== null));
      });
    },
  });
  let last = 0;
  const report = () => {
    // The body, not the document: the document is never shorter than the frame, so it could only grow.
    const body = win.document.body;
    const margin =
      parseFloat(win.getComputedStyle(body).marginTop) + parseFloat(win.getComputedStyle(body).marginBottom);
    const height = Math.ceil(body.getBoundingClientRect().height + (margin || 0));
    if (height === last) return;
    last = height;
    bridge.announce({ type: 'resize', height });
  };
  if (typeof ResizeObserver === 'function') new ResizeObserver(report).observe(win.document.body);
  report();
  return bridge;
}
