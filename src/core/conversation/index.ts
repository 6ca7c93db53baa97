// A conversation about the library: threads of turns, the history a follow-up sees, the
// rewrite of a follow-up into a search query, and the thread's exports.
export * from './thread';
export * from './history';
export * from './rewrite';
export * from './export-markdown';
export * from './export-json';
