// Types for embed.js, the host script the app's site serves.

export type EmbedTheme = 'light' | 'dark' | 'system';

export interface EmbedOptions {
  /** The app's address (default: the folder embed.js was loaded from). */
  app?: string;
  /** A question the app answers as soon as its library is ready. */
  question?: string;
  theme?: EmbedTheme;
  /** The frame's accessible title. */
  title?: string;
  /** Starting height in CSS pixels (default 600), before the app reports its own. */
  height?: number;
  /** Follow the app's height (default true), never below minHeight (default 200). */
  autoResize?: boolean;
  minHeight?: number;
  /** How long to wait for the app's handshake (default 60 000 ms). */
  timeoutMs?: number;
}

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

export interface EmbedAnswer {
  question: string;
  segments: EmbedSegment[];
  aborted: boolean;
  /** The passages themselves, with no written answer (no language model could load). */
  evidenceOnly: boolean;
}

export interface EmbeddedApp {
  frame: HTMLIFrameElement;
  /** The protocol version the app speaks (1 for an app older than `version`). */
  readonly version: number;
  /** Asks a question; rejects with the app's message when it cannot answer. */
  ask(question: string): Promise<EmbedAnswer>;
  setTheme(theme: EmbedTheme): void;
  /** Removes the frame; pending questions reject. */
  destroy(): void;
}

/**
 * Places the app in `container` and resolves once it answered the handshake. Rejects at once, with
 * the app's reason, when this page's origin is not in `allowedOrigins` of the app's embed.json
 * (an app older than that refusal is only noticed at `timeoutMs`).
 */
export function embed(container: HTMLElement, options?: EmbedOptions): Promise<EmbeddedApp>;
