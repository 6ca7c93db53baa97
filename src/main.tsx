import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createApp } from './app/wiring/create-app';
import { App } from './ui/App';
import { AppContext } from './ui/AppContext';
import './ui/styles.css';

// The page's app, made once (app/wiring/create-app.ts) and handed to React through its context.
const app = await createApp(window);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppContext.Provider value={app}>
      <App />
    </AppContext.Provider>
  </StrictMode>,
);

app.start();
