// Which GGUF models this browser keeps for offline use, decided once from wllama's cache entries
// (its OPFS folder, read by the worker or by the offline panel): the loader, the picker's
// "(downloaded)", Delete and the offline panel all ask this, so they cannot disagree. A model is
// kept when every file of it is stored under the address it was downloaded from, whole by
// wllama's own check (the stored size is the size the server announced); wllama then loads it
// without a network. No wllama import: the picker and the panel render before it loads.

/** One stored file as wllama's CacheManager lists it (esm/cache-manager.d.ts `CacheEntry`). */
export interface KeptEntry {
  name: string;
  size: number;
  metadata: { originalURL: string; originalSize: number } | null;
}

/** wllama refuses files under 16 bytes (ModelValidationStatus.INVALID). */
const MIN_BYTES = 16;

/** The entry holding `url` whole, if any. */
function whole(entries: readonly KeptEntry[], url: string): KeptEntry | undefined {
  return entries.find(
    (e) => e.metadata?.originalURL === url && e.size >= MIN_BYTES && e.metadata.originalSize === e.size,
  );
}

/** Whether every file of a model (its URLs, in order) is kept whole. */
export function isKept(entries: readonly KeptEntry[], urls: readonly string[]): boolean {
  return urls.length > 0 && urls.every((u) => whole(entries, u) !== undefined);
}

/** The first of `candidates` (the addresses one model may have been stored under) that is kept; null when none is. */
export function keptAddress(
  entries: readonly KeptEntry[],
  candidates: readonly (readonly string[])[],
): string[] | null {
  const found = candidates.find((urls) => isKept(entries, urls));
  return found ? [...found] : null;
}

/** The parts of a split model: `name-00001-of-00003.gguf` and its siblings. */
const PART = /-(\d{5})-of-(\d{5})\.gguf$/;

/** The file names of the models kept whole, one per model (a split model by its first part), sorted. */
export function keptModelNames(entries: readonly KeptEntry[]): string[] {
  const names = new Set<string>();
  for (const e of entries) {
    const url = e.metadata?.originalURL;
    if (!url || !/\.gguf$/.test(new URL(url, 'http://x/').pathname)) continue;
    const part = PART.exec(url);
    if (part && part[1] !== '00001') continue;
    const urls = part
      ? Array.from({ length: Number(part[2]) }, (_, i) =>
          url.replace(PART, `-${String(i + 1).padStart(5, '0')}-of-${part[2]}.gguf`),
        )
      : [url];
    if (isKept(entries, urls)) names.add(decodeURIComponent(url.split('/').pop() ?? url));
  }
  return [...names].sort();
}

/**
 * Where one catalogue model may be stored: the site's own copy (`npm run models -- --gguf <id>` puts
 * it in models/gguf/) first, then its hub address.
 */
export function siteCopy(urls: readonly string[], baseURI: string): string[] {
  return urls.map((u) => new URL(`models/gguf/${new URL(u).pathname.split('/').pop()}`, baseURI).href);
}
