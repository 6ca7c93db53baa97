// What the thread list's buttons do: open, rename, delete and start threads through the
// conversation, download the thread shown (its exporter and the download code load on first use),
// and read an exported file back in (what cannot be read is said by `onImportError`).
import type { Conversation } from './conversation';
import { errorMessage } from '../../core/errors';

export interface ThreadActions {
  open(id: string): void;
  rename(id: string, title: string): void;
  remove(id: string): void;
  newThread(): void;
  exportMarkdown(): void;
  exportJson(): void;
  importFile(file: File): void;
}

const FORMATS = {
  md: { exported: (c: Conversation) => c.exportMarkdown(), type: 'text/markdown' },
  json: { exported: (c: Conversation) => c.exportJson(), type: 'application/json' },
} as const;

/** Downloads the thread shown; the title is the one it had when the user asked. */
function download(conversation: Conversation, format: keyof typeof FORMATS): void {
  const title = conversation.get().thread?.title;
  const { exported, type } = FORMATS[format];
  void Promise.all([exported(conversation), import('../browser/download')]).then(
    ([text, { downloadText, fileNameFor }]) => {
      if (text && title !== undefined) downloadText(fileNameFor(title, format), text, type);
    },
  );
}

export function threadActions(
  conversation: Conversation,
  onImportError: (message: string) => void,
  /** A thread the user chose is shown (not when the open was refused or the thread is gone). */
  onOpened: (id: string) => void = () => {},
): ThreadActions {
  return {
    open: (id) =>
      void conversation.open(id).then(() => {
        if (conversation.get().thread?.id === id) onOpened(id);
      }),
    rename: (id, title) => void conversation.rename(id, title),
    remove: (id) => void conversation.remove(id),
    newThread: conversation.newThread,
    exportMarkdown: () => download(conversation, 'md'),
    exportJson: () => download(conversation, 'json'),
    importFile: (file) => {
      void file
        .text()
        .then((text) => conversation.importJson(text))
        .catch((e: unknown) => onImportError(errorMessage(e)));
    },
  };
}
