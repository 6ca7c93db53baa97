// The messages between an embedding page and the app (docs/embedding.md; public/embed.d.ts is
// checked against them): what a host may ask, and what the app says back, the answer included
// (view/embed-answer.ts words it). Plain data, apart from the bridge that sends them.

/**
 * Version 2 added `version` to `ready` and `pong`, the `resize` message (the page's height, for
 * the host to size the frame) and the `theme` request. Version 1 hosts ignore the additions.
 */
export const EMBED_PROTOCOL_VERSION = 2;

export type EmbedTheme = 'light' | 'dark' | 'system';

export type EmbedRequest =
  | { type: 'ask'; question: string; id?: string }
  | { type: 'ping'; id?: string }
  | { type: 'theme'; theme: EmbedTheme; id?: string };

export interface EmbedSegment {
  text: string;
  /**
   * `place` and what it is made of are optional additions within version 2 (older hosts ignore
   * them): the page or pages and the heading path the passage stands at, and `place` as the page
   * shows it ("p. 12", "Ch. 16 › Using Message Passing"); absent where the document has none, and
   * for passages stored before places were recorded.
   */
  citation: {
    passageId: string;
    title: string;
    place?: string;
    page?: number;
    pageEnd?: number;
    headings?: string[];
  } | null;
  isrel: number | null;
  issup: number | null;
  isuse: number | null;
}

export type EmbedReply =
  | { type: 'ready'; version: number }
  | { type: 'pong'; id?: string; version: number }
  | { type: 'resize'; height: number }
  | { type: 'answer'; id?: string; question: string; segments: EmbedSegment[]; aborted: boolean; evidenceOnly: boolean }
  | { type: 'error'; id?: string; message: string }
  /** To an embedding page whose origin is not allowed: at once, so its host script need not wait out its timeout. */
  | { type: 'refused'; id?: string; origin: string; message: string };
