// What the storage notice says, in plain words: what this visit keeps and what it does not,
// for each place the page may keep things (see wiring/storage-plan.ts).
import type { StoragePlanState } from '../state/storage-plan';

export interface StorageNoticeView {
  /** 'warn' when nothing is kept after the visit. */
  tone: 'info' | 'warn';
  text: string;
  /** The Storage Access button's label, when it is offered. */
  askLabel: string | null;
  /** Said after the browser refused access. */
  refused: string | null;
  /** The link to the same question in the app's own tab: only useful from inside another site's page. */
  openLink: boolean;
}

/** The app's site as a visitor knows it: its host name. */
export function siteName(pageUrl: string): string {
  try {
    return new URL(pageUrl).host;
  } catch {
    return 'the app’s site';
  }
}

/** null when there is nothing to say (a visit with the page's own storage). */
export function storageNotice(s: StoragePlanState, appSite: string): StorageNoticeView | null {
  if (s.mode === null || s.mode === 'own') return null;
  const askLabel = s.canAsk ? `Use the library and models saved on ${appSite}` : null;
  const refused = s.refused ? `The browser did not allow it, so this page goes on without ${appSite}’s storage.` : null;
  if (s.mode === 'shared') {
    return {
      tone: 'info',
      text: `Using the library, conversations, settings and models saved on ${appSite}: what you add, ask, change or download here is kept there too.`,
      askLabel: null,
      refused: null,
      openLink: true,
    };
  }
  if (s.mode === 'partitioned') {
    return {
      tone: 'info',
      text: `Embedded on another site, this page keeps its own library, conversations, settings and models for that site, apart from those saved on ${appSite}: models you already downloaded there download again here once.`,
      askLabel,
      refused,
      openLink: true,
    };
  }
  const where = s.probe?.crossSite
    ? 'Embedded on another site, this page gets no storage from your browser'
    : 'Your browser gives this page no storage (a private window, or storage turned off)';
  return {
    tone: 'warn',
    text:
      `${where}, so nothing is kept after you leave: the library is in memory (the site’s documents, and any you add now, until the page closes), ` +
      `conversations and settings last until the page closes, and the models download again on every visit.${s.probe?.crossSite ? ` Open the question on ${appSite} to keep everything.` : ''}`,
    askLabel,
    refused,
    openLink: !!s.probe?.crossSite,
  };
}
