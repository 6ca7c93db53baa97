// A conversation about the library: threads of turns, the history a follow-up sees, the
// rewrite of a follow-up into a search query, whether a question depends on the conversation
// and what to search for it, and the thread's exports.
export * from './thread';
export * from './history';
export * from './rewrite';
export * from './dependence';
export * from './search-plan';
export * from './export-markdown';
export * from './export-json';
