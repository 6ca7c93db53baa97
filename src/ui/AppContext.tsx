// The page's app (app/wiring/create-app.ts: the controller, the conversation and the services, made
// once) handed down to every component that needs it, in place of a module-level singleton.
import { createContext } from 'react';
import type { PageApp } from '../app/wiring/create-app';

export const AppContext = createContext<PageApp | null>(null);
