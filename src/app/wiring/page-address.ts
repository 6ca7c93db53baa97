// The page's address and history entry, kept in step with the conversation: the address bar is a
// shareable link to the question shown and the settings, the history entry remembers the thread
// open (so a reload re-opens it instead of asking the address's question again), and a question
// the address carries is asked once, in a thread of its own, when the library can answer it.
import { readPageEntry, sameEntry, withPageEntry, type PageEntry } from '../persist/page-entry';
import { writeUrlState } from '../persist/url-state';
import type { Controller } from './controller';
import type { Conversation } from './conversation';
import type { AppServices } from './services-contract';

/** The parts of the window the address is kept in (a test passes its own). */
export type AddressWindow = Pick<Window, 'location' | 'history'>;

/** A question the address carries: as typed, and what it was searched by where that differs. */
export interface LinkedQuestion {
  question: string | null;
  searched: string | null;
}

export interface PageAddress {
  /** The link to the question shown, with today's settings. */
  share(): string;
  /** Resolves with whether the thread the history entry (or the address) names was re-opened. */
  started: Promise<boolean>;
  /** Asks the address's question once the library has documents, unless a reload re-opened its thread. */
  askLinked(library: AppServices['library']): void;
}

export function followAddress(
  win: AddressWindow,
  controller: Controller,
  conversation: Conversation,
  linked: LinkedQuestion,
): PageAddress {
  // A reload finds the thread that was open in its history entry (persist/page-entry.ts); a page
  // without one (an older entry) re-opens the newest thread when it ends with the address's question.
  // Either way the address's question is not asked again.
  let kept = readPageEntry(win.history.state);
  const started = conversation.start({ linkedQuestion: linked.question, entry: kept });

  /**
   * What a link reproduces: the question as typed, and what it was searched by where that differs
   * ("and how do I use it with Rc?" is searched as its standalone form when the link is opened).
   */
  const linkQuestion = (): LinkedQuestion => {
    const { thread, viewed } = conversation.get();
    const turn = viewed ? thread?.turns[viewed] : undefined;
    if (turn) return { question: turn.question, searched: turn.searchQuery ?? null };
    return { question: controller.getState().answer.question || null, searched: null };
  };
  const share = () => {
    const { question, searched } = linkQuestion();
    const { search, hash, href } = win.location;
    return new URL(writeUrlState(search, question, controller.getState().settings, searched) + hash, href).href;
  };

  // Keep the address bar a shareable link to the current question and settings.
  let lastQuestion = '';
  controller.subscribe(() => {
    const q = controller.getState().answer.question;
    if (q && q !== lastQuestion) {
      lastQuestion = q;
      win.history.replaceState(win.history.state, '', share());
    }
  });

  // The thread open is kept in the history entry once the page has started and the address's
  // question has had its turn (a reload before it was asked still asks it).
  let linkSettled = false;
  const keepEntry = () => {
    if (!linkSettled) return;
    const { thread, viewed } = conversation.get();
    const entry: PageEntry = { thread: thread?.id ?? null, viewed };
    if (sameEntry(kept, entry)) return;
    kept = entry;
    win.history.replaceState(withPageEntry(win.history.state, entry), '');
  };
  conversation.subscribe(keepEntry);
  void started.then((answered) => {
    if (!answered && linked.question) return;
    linkSettled = true;
    keepEntry();
  });

  const askLinked = (library: AppServices['library']) => {
    const question = linked.question;
    if (!question) return;
    const unsubscribe = library.subscribe(() => {
      const lib = library.get();
      if (!(lib.ready && lib.docs.length > 0 && lib.jobs.length === 0)) return;
      unsubscribe();
      // A link reproduces one question, in a thread of its own.
      void started.then((answered) => {
        if (answered) return;
        conversation.newThread();
        void conversation.ask(question, linked.searched ?? undefined);
        // Kept with the next change of the conversation: the question's turn.
        linkSettled = true;
      });
    });
  };

  return { share, started, askLinked };
}
