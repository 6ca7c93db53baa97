// How the source viewer reaches the library: the page provides the loader, the dialogs that
// show a passage read it. A context, so the citation, the why-panel and the evidence list
// need no new props threaded through them.
import { createContext } from 'react';
import type { DocumentSource } from '../../app/view/library-panel';

export type SourceLoader = (docId: string) => Promise<DocumentSource | undefined>;

export const SourceLoaderContext = createContext<SourceLoader | null>(null);
