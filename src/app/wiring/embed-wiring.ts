// The embed bridge wired to the page: answers an allowed host's questions, follows its theme,
// and tells it the page's height whenever it changes, so the host can size the frame to fit.
// A host's question takes the page's own way (conversation.askApart: a new thread of its own, as a
// question from the address), so its answer is a turn, kept and shown like any other.
import type { Controller } from './controller';
import type { Conversation } from './conversation';
import { createEmbedBridge, loadAllowedOrigins, type EmbedBridge } from './embed-bridge';
import { EMBED_PROTOCOL_VERSION } from '../view/embed-messages';
import { answerMessage } from '../view/embed-answer';

export async function startEmbedBridge(
  controller: Controller,
  conversation: Conversation,
  win: Window = window,
): Promise<EmbedBridge | null> {
  if (win.parent === win) return null;
  const allowed = await loadAllowedOrigins(win.document.baseURI);
  if (allowed.length === 0) return null;
  const bridge = createEmbedBridge({
    host: win,
    allowed,
    onRequest: (req, from) => {
      if (req.type === 'ping') return bridge.reply(from, { type: 'pong', id: req.id, version: EMBED_PROTOCOL_VERSION });
      if (req.type === 'theme') return controller.showHostTheme(req.theme);
      void conversation.askApart(req.question).then((turn) => {
        if (!turn) {
          const message = conversation.get().notice?.text ?? 'The question could not be asked.';
          return bridge.reply(from, { type: 'error', id: req.id, message });
        }
        // The page shows the turn just written: its answer, ranked with the page's weights.
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
