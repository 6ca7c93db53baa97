// public/embed.d.ts is served to host pages as a static file, so it cannot import the app's
// types: it restates them. This file is checked by the type-check (`npm test` runs it first),
// which fails the moment the two drift apart, so a host's types always describe what the app sends.
import type { EmbedAnswer, EmbedSegment as HostSegment, EmbedTheme as HostTheme } from '../../public/embed';
import type { EmbedReply, EmbedSegment, EmbedTheme } from '../../src/app/view/embed-messages';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type AppAnswer = Omit<Extract<EmbedReply, { type: 'answer' }>, 'type' | 'id'>;

export const embedTypesMatch: [
  Equal<HostSegment, EmbedSegment>,
  Equal<HostTheme, EmbedTheme>,
  Equal<EmbedAnswer, AppAnswer>,
] = [true, true, true];
