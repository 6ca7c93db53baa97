// A real folder of documents for browser tests: the Rust book's chapters (HTML, as rustup
// installs them) and Debian's PDF manuals, or, where rustup has no book, Debian's READMEs and
// man pages rendered to text. Real files break lines mid-sentence and weigh what users add.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';

const DEBIAN_PDFS = [
  '/usr/share/doc/libtasn1-doc/libtasn1.pdf',
  '/usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf',
];

/** The Rust book's HTML folder of the first toolchain that has one, or null. */
export function rustBook(): string | null {
  const toolchains = join(homedir(), '.rustup/toolchains');
  if (!existsSync(toolchains)) return null;
  for (const t of readdirSync(toolchains).sort()) {
    const book = join(toolchains, t, 'share/doc/rust/html/book');
    if (existsSync(join(book, 'ch01-00-getting-started.html'))) return book;
  }
  return null;
}

/** Writes `count` real documents under `dir` and returns their number; throws when the machine has none. */
export function writeRealFolder(dir: string, count = 126): number {
  mkdirSync(dir, { recursive: true });
  const pdfs = DEBIAN_PDFS.filter(existsSync);
  for (const p of pdfs) copyFileSync(p, join(dir, basename(p)));
  let n = pdfs.length;
  const book = rustBook();
  if (book) {
    const chapters = readdirSync(book)
      .filter((f) => /^(ch\d|appendix)/.test(f) && f.endsWith('.html'))
      .sort();
    for (const f of chapters.slice(0, count - n)) copyFileSync(join(book, f), join(dir, f));
    n += Math.min(chapters.length, count - n);
  } else {
    const readmes = readdirSync('/usr/share/doc')
      .flatMap((p) => ['README.md', 'README', 'README.txt'].map((r) => join('/usr/share/doc', p, r)))
      .filter(existsSync);
    for (const f of readmes.slice(0, Math.floor((count - n) / 2)))
      copyFileSync(f, join(dir, `${f.split('/').at(-2)}-${basename(f)}${/\.\w+$/.test(f) ? '' : '.txt'}`));
    n += Math.min(readmes.length, Math.floor((count - n) / 2));
    const pages = readdirSync('/usr/share/man/man1')
      .filter((f) => f.endsWith('.1.gz'))
      .slice(0, count - n);
    for (const p of pages) {
      const text = execFileSync('man', ['-P', 'cat', join('/usr/share/man/man1', p)], {
        env: { ...process.env, MANWIDTH: '80' },
      }).toString('utf8');
      writeFileSync(join(dir, p.replace(/\.1\.gz$/, '.txt')), text);
    }
    n += pages.length;
  }
  if (n < count / 2)
    throw new Error(`Only ${n} real documents on this machine (no Rust book under ~/.rustup, too few Debian docs).`);
  return n;
}
