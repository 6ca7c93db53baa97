// The Maven Central embedders are laid out as transformers.js loads a model, from a jar pinned by
// SHA-256 and read from the local Maven repository (a temporary one here, holding a jar made
// with the members the real jars have).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { zipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { type MavenEmbedder, mavenPath } from '../../../scripts/real-models/catalogue';
import { mavenEmbedder } from '../../../scripts/real-models/maven-embedders';

const vocab = Object.fromEntries(Array.from({ length: 30522 }, (_, i) => [`w${i}`, i]));
const tokenizer = new TextEncoder().encode(JSON.stringify({ model: { type: 'WordPiece', vocab } }));
const onnx = new Uint8Array([8, 7, 1, 2, 3]);

function setUp(members: Record<string, Uint8Array>) {
  const repo = mkdtempSync(join(tmpdir(), 'm2-'));
  const jar = zipSync(members);
  const m: MavenEmbedder = {
    group: 'dev.example',
    artifact: 'embeddings-tiny-q',
    version: '1.0.0',
    sha256: createHash('sha256').update(jar).digest('hex'),
    onnx: 'tiny-q.onnx',
    tokenizer: 'tiny-q-tokenizer.json',
    folder: 'bge-tiny',
    layers: 2,
    maxTokens: 512,
    card: 'a test jar',
  };
  const path = join(repo, mavenPath(m));
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, jar);
  process.env.MAVEN_REPOSITORY = repo;
  return { m, root: mkdtempSync(join(tmpdir(), 'real-')), jarPath: path };
}

afterEach(() => {
  delete process.env.MAVEN_REPOSITORY;
});

describe('Maven embedders', () => {
  it('lays a jar out as a transformers.js model: config, tokenizer, its config, the q8 graph, and where it came from', async () => {
    const { m, root } = setUp({ 'tiny-q.onnx': onnx, 'tiny-q-tokenizer.json': tokenizer, README: new Uint8Array(3) });
    const dir = await mavenEmbedder(m, root, () => {});
    expect(dir).toBe(join(root, 'bge-tiny'));
    expect(new Uint8Array(readFileSync(join(dir, 'onnx/model_quantized.onnx')))).toEqual(onnx);
    expect(readFileSync(join(dir, 'tokenizer.json'))).toEqual(Buffer.from(tokenizer));
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(config).toMatchObject({ model_type: 'bert', num_hidden_layers: 2, hidden_size: 384 });
    const tokConfig = JSON.parse(readFileSync(join(dir, 'tokenizer_config.json'), 'utf8'));
    expect(tokConfig).toMatchObject({ tokenizer_class: 'BertTokenizer', model_max_length: 512, do_lower_case: true });
    expect(JSON.parse(readFileSync(join(dir, 'source.json'), 'utf8')).sha256).toBe(m.sha256);
  });

  it('refuses a jar whose SHA-256 is not the pinned one, and leaves no folder behind', async () => {
    const { m, root, jarPath } = setUp({ 'tiny-q.onnx': onnx, 'tiny-q-tokenizer.json': tokenizer });
    writeFileSync(jarPath, zipSync({ 'tiny-q.onnx': new Uint8Array([6, 6, 6]), 'tiny-q-tokenizer.json': tokenizer }));
    await expect(mavenEmbedder(m, root, () => {})).rejects.toThrow(/has SHA-256 .* expected .*refusing it/);
    expect(existsSync(join(root, 'bge-tiny'))).toBe(false);
  });

  it('refuses a jar without its graph or with a tokenizer that is not BERT WordPiece', async () => {
    const a = setUp({ 'tiny-q-tokenizer.json': tokenizer });
    await expect(mavenEmbedder(a.m, a.root, () => {})).rejects.toThrow(/lacks tiny-q\.onnx/);
    const bad = new TextEncoder().encode(JSON.stringify({ model: { type: 'BPE', vocab: {} } }));
    const b = setUp({ 'tiny-q.onnx': onnx, 'tiny-q-tokenizer.json': bad });
    await expect(mavenEmbedder(b.m, b.root, () => {})).rejects.toThrow(/not the BERT WordPiece vocabulary/);
  });
});
