// The cache whose presence holds the e2e generator's model load open (engine-factory.ts);
// its own file so node-side tests can name it without importing the worker's double.
export const HOLD_LOAD_CACHE = 'scripted-engine-hold-load';
