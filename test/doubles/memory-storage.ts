// In-memory Cache Storage and OPFS directory for unit tests in Node (which has neither): the
// calls the saved-storage relay makes, with the browser's answers (a missing file is a
// NotFoundError, a cache opened is created, a stored Response can be read again).

interface Stored {
  body: ArrayBuffer;
  init: ResponseInit;
}

const keyOf = (req: RequestInfo | URL) => (typeof req === 'string' ? req : req instanceof URL ? req.href : req.url);

export class MemoryCache {
  readonly entries = new Map<string, Stored>();
  async match(req: RequestInfo | URL): Promise<Response | undefined> {
    const s = this.entries.get(keyOf(req));
    return s ? new Response(s.body.slice(0), s.init) : undefined;
  }
  async put(req: RequestInfo | URL, res: Response): Promise<void> {
    this.entries.set(keyOf(req), {
      body: await res.arrayBuffer(),
      init: { status: res.status, statusText: res.statusText, headers: [...res.headers] },
    });
  }
  async keys(): Promise<Request[]> {
    return [...this.entries.keys()].map((u) => new Request(u));
  }
  async delete(req: RequestInfo | URL): Promise<boolean> {
    return this.entries.delete(keyOf(req));
  }
}

export class MemoryCacheStorage {
  readonly caches = new Map<string, MemoryCache>();
  async open(name: string): Promise<MemoryCache> {
    if (!this.caches.has(name)) this.caches.set(name, new MemoryCache());
    return this.caches.get(name)!;
  }
  async has(name: string): Promise<boolean> {
    return this.caches.has(name);
  }
  async delete(name: string): Promise<boolean> {
    return this.caches.delete(name);
  }
  async keys(): Promise<string[]> {
    return [...this.caches.keys()];
  }
}

const notFound = (name: string) => new DOMException(`${name} was not found`, 'NotFoundError');

export class MemoryFile {
  readonly kind = 'file';
  constructor(
    readonly name: string,
    public blob: Blob = new Blob([]),
  ) {}
  async getFile(): Promise<File> {
    return new File([this.blob], this.name);
  }
  async createWritable(): Promise<WritableStream<Uint8Array>> {
    const chunks: Uint8Array[] = [];
    return new WritableStream<Uint8Array>({
      write: (c) => void chunks.push(c.slice()),
      close: () => void (this.blob = new Blob(chunks as BlobPart[])),
    });
  }
}

export class MemoryDirectory {
  readonly kind = 'directory';
  readonly children = new Map<string, MemoryDirectory | MemoryFile>();
  constructor(readonly name = '') {}
  async getDirectoryHandle(name: string, opts: { create?: boolean } = {}): Promise<MemoryDirectory> {
    const c = this.children.get(name);
    if (c instanceof MemoryDirectory) return c;
    if (c || !opts.create) throw c ? new DOMException(name, 'TypeMismatchError') : notFound(name);
    const d = new MemoryDirectory(name);
    this.children.set(name, d);
    return d;
  }
  async getFileHandle(name: string, opts: { create?: boolean } = {}): Promise<MemoryFile> {
    const c = this.children.get(name);
    if (c instanceof MemoryFile) return c;
    if (c || !opts.create) throw c ? new DOMException(name, 'TypeMismatchError') : notFound(name);
    const f = new MemoryFile(name);
    this.children.set(name, f);
    return f;
  }
  async removeEntry(name: string): Promise<void> {
    if (!this.children.delete(name)) throw notFound(name);
  }
  async *entries(): AsyncGenerator<[string, MemoryDirectory | MemoryFile]> {
    yield* this.children.entries();
  }
  [Symbol.asyncIterator]() {
    return this.entries();
  }
}
