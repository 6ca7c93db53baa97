// The library as the page shows it. services.ts adapts the library facade to
// this, so the panel renders before the library (and its models) has loaded.
import type { Progress } from './status';

export interface LibraryDocView {
  id: string;
  title: string;
  passages: number;
  bytes?: number;
}

export interface LibraryJobView extends Progress {
  id: string;
  error?: string;
}

export interface LibraryViewState {
  ready: boolean;
  docs: LibraryDocView[];
  jobs: LibraryJobView[];
  /** Last problem (a refused file, a failed ingestion), shown until the next action. */
  messages: { id: number; kind: 'error' | 'info'; text: string }[];
}

export interface LibraryActions {
  addFiles(files: File[]): Promise<void>;
  addText(title: string, text: string): Promise<void>;
  remove(id: string): Promise<void>;
  loadSample(): Promise<void>;
  dismiss(messageId: number): void;
}

export const emptyLibraryView: LibraryViewState = { ready: false, docs: [], jobs: [], messages: [] };
