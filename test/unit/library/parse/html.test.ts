// A web page read as a reader reads it: its content without menus, navigation, pop-ups and
// controls; its line wrapping as a browser lays it out. Shapes below are cut down from real
// generators' pages (mdBook, DocBook, Node's API docs).
import { describe, expect, it } from 'vitest';
import { parseHtml } from '../../../../src/library/parse/html';

const MDBOOK = `<!DOCTYPE html><html><head><title>Message Passing - The Rust Programming Language</title>
<script>const path_to_root = "";</script></head><body>
<div id="mdbook-help-container"><div id="mdbook-help-popup">
  <h2 class="mdbook-help-title">Keyboard shortcuts</h2>
  <div><p>Press <kbd>←</kbd> or <kbd>→</kbd> to navigate between chapters</p></div>
</div></div>
<nav id="mdbook-sidebar" class="sidebar" aria-label="Table of contents"><ol><li><a href="ch01.html">1. Getting Started</a></li></ol></nav>
<div class="page"><div id="mdbook-menu-bar" class="menu-bar">
  <button id="mdbook-theme-toggle" type="button" aria-label="Change theme">T</button>
  <ul id="mdbook-theme-list" class="theme-popup" role="menu">
    <li role="none"><button role="menuitem">Auto</button></li><li role="none"><button role="menuitem">Light</button></li>
  </ul>
  <h1 class="menu-title">The Rust Programming Language</h1>
</div>
<main>
<h2 id="mp"><a class="header" href="#mp">Using Message Passing</a></h2>
<p>One increasingly popular approach to ensuring safe concurrency is message
passing, where threads or actors communicate by sending each other messages.</p>
<pre><code class="language-rust">use std::sync::mpsc;

fn main() {
    let (tx, rx) = mpsc::channel();
}</code></pre>
<ul>
<li>The transmitter sends.</li>
<li>The receiver
receives.</li>
</ul>
</main>
<nav class="nav-wrapper" aria-label="Page navigation"><a rel="prev" href="a.html" title="Previous chapter">Previous</a></nav>
</div></body></html>`;

describe('parseHtml: pages without their chrome', () => {
  it('keeps only <main> of an mdBook chapter: no keyboard-help pop-up, theme menu, sidebar or page links', () => {
    const r = parseHtml(MDBOOK);
    expect(r.text).not.toMatch(/Keyboard shortcuts|navigate between chapters|Auto|Light|Getting Started|Previous/);
    expect(r.text).not.toContain('The Rust Programming Language');
    expect(r.text.startsWith('Using Message Passing\n\nOne increasingly popular approach')).toBe(true);
    expect(r.title).toBe('Message Passing - The Rust Programming Language');
    // Headings come from the content only, placed where the text has them.
    expect(r.headings).toEqual([{ level: 2, title: 'Using Message Passing', start: 0 }]);
  });

  it('joins the source line wrapping inside a paragraph and a list item, and keeps code lines and indentation', () => {
    const { text } = parseHtml(MDBOOK);
    expect(text).toContain('ensuring safe concurrency is message passing, where threads');
    expect(text).toContain(
      'use std::sync::mpsc;\n\nfn main() {\n    let (tx, rx) = mpsc::channel();\n}\n\nThe transmitter sends.',
    );
    // List items stay apart; a wrapped item is one line.
    expect(text).toMatch(/The transmitter sends\.\n+The receiver receives\.$/);
  });

  it('without <main>, drops navigation, site header and footer, menus, dialogs, buttons and hidden elements', () => {
    const html = `<html><body>
      <header><a href="/">Site name</a> <span>Home · Blog</span></header>
      <div role="navigation"><a href="x">Index</a></div>
      <table class="nav" summary="Navigation header"><tr><th>Valgrind User Manual</th></tr></table>
      <div class="toc"><p><b>Table of Contents</b></p><dl><dt>4.1. Overview</dt></dl></div>
      <article><header><h1>The lighthouse</h1><p>By the keeper</p></header>
        <p>The lens turns once a minute.</p>
        <div hidden>Secret draft</div><div aria-hidden="true">Decorative twin</div>
        <div style="color: red; display: none">Collapsed note</div>
        <div role="dialog">Subscribe to our newsletter</div>
        <button type="button">Copy</button>
        <footer>Filed under: lights</footer>
      </article>
      <footer>© 2024 Site</footer></body></html>`;
    const { text } = parseHtml(html);
    expect(text).toBe('The lighthouse\n\nBy the keeper\n\nThe lens turns once a minute.\n\nFiled under: lights');
  });

  it('keeps a plain page with no article whole: headings, paragraphs, lists, tables and code', () => {
    const html = `<html><head><title>Notes</title></head><body><h1>Tides</h1><p>High water twice a day.</p>
      <ol><li>Spring tides</li><li>Neap tides</li></ol>
      <table><tr><th>Port</th><th>Range</th></tr><tr><td>Brest</td><td>7 m</td></tr></table>
      <pre>
tide --port brest
  --days 3</pre></body></html>`;
    const r = parseHtml(html);
    expect(r.text).toBe(
      'Tides\n\nHigh water twice a day.\n\nSpring tides\n\nNeap tides\n\nPort Range\n\nBrest 7 m\n\ntide --port brest\n  --days 3',
    );
    expect(r.headings).toEqual([{ level: 1, title: 'Tides', start: 0 }]);
  });

  it('uses the whole page when its <main> holds no text, and never a <main> inside hidden chrome', () => {
    expect(parseHtml('<body><p>Outside text.</p><main> </main></body>').text).toBe('Outside text.');
    expect(parseHtml('<body><p>Real content.</p><div hidden><main>Template copy</main></div></body>').text).toBe(
      'Real content.',
    );
  });

  it('takes role="main" as the content, and drops the anchor marks some generators put after headings', () => {
    const html = `<body><div role="navigation" id="column2"><a href="fs.html">File system</a></div>
      <div role="main" id="apicontent"><h2>File system<span><a class="mark" href="#fs">#</a></span></h2>
      <p>The <code>node:fs</code> module.</p></div></body>`;
    const r = parseHtml(html);
    expect(r.text).toBe('File system\n\nThe node:fs module.');
    expect(r.headings).toEqual([{ level: 2, title: 'File system', start: 0 }]);
  });

  it('a line break is one line, a paragraph a blank line', () => {
    expect(parseHtml('<p>Roses are red<br>violets are blue</p><p>Next</p>').text).toBe(
      'Roses are red\nviolets are blue\n\nNext',
    );
  });

  it('drops a block that is nearly all links (a table of contents, a menu) with its heading, and keeps prose that links', () => {
    const html = `<body><div class="contents"><h2>Table of Contents</h2><ul>
      <li><a href="#a">1 Measuring Program Resource Use</a></li><li><a href="#b">1.1 Setting the Output Format</a></li>
      <li><a href="#c">1.2 The Format String</a></li></ul></div>
      <h2>1 Measuring Program Resource Use</h2>
      <p>The <a href="#t">time</a> command runs another program, then displays information about the
      resources used by that program, as <a href="#f">the format</a> says.</p></body>`;
    const r = parseHtml(html);
    expect(r.text).toBe(
      '1 Measuring Program Resource Use\n\nThe time command runs another program, then displays information about the resources used by that program, as the format says.',
    );
    expect(r.headings).toEqual([{ level: 2, title: '1 Measuring Program Resource Use', start: 0 }]);
  });

  it('drops GNU Texinfo\'s "Next: …, Previous: …, Up: …" lines, which mark their links rel=next/prev/up', () => {
    const html = `<body><div class="header"><p>Next: <a href="#i" accesskey="n" rel="next">Introduction</a>,
      Previous: <a href="dir.html" accesskey="p" rel="prev">(dir)</a>, Up: <a href="dir.html" rel="up">(dir)</a>
      [<a href="#toc" rel="contents">Contents</a>]</p></div><h2>1.1 Description</h2><p>bc is a language.</p></body>`;
    expect(parseHtml(html).text).toBe('1.1 Description\n\nbc is a language.');
  });

  it('keeps the links of a page that is nothing but links (an index), still without its navigation', () => {
    const html = `<body><nav><a href="a.html">Alpha</a></nav><ul><li><a href="a.html">Alpha</a></li>
      <li><a href="b.html">Beta</a></li><li><a href="c.html">Gamma</a></li></ul></body>`;
    expect(parseHtml(html).text).toBe('Alpha\n\nBeta\n\nGamma');
    // Its <main> a list of links too (a section's first page): the list, not the page's pop-ups.
    const section = `<body><div id="help"><p>Keyboard shortcuts</p></div><main><h1>Commands</h1><ul>
      <li><a href="a.html">Build Commands</a></li><li><a href="b.html">Package Commands</a></li></ul></main></body>`;
    expect(parseHtml(section).text).toBe('Commands\n\nBuild Commands\n\nPackage Commands');
    // Nothing but navigation: every word rather than none.
    expect(parseHtml('<body><nav><a href="a.html">Alpha</a> <a href="b.html">Beta</a></nav></body>').text).toBe(
      'Alpha Beta',
    );
  });
  // Node's API manual, cut down: an unmarked side menu (<div id="column2">) beside the page.
  const modules = [
    'Assertion testing',
    'Asynchronous context tracking',
    'Buffer',
    'Child processes',
    'Cluster',
    'Command-line options',
    'Diagnostics Channel',
    'File system',
    'Internationalization',
    'Performance hooks',
    'Single executable applications',
    'String decoder',
    'Worker threads',
    'Asynchronous hooks',
    'C++ embedder API',
    'Deprecated APIs',
    'Modules: ECMAScript modules',
    'Modules: CommonJS modules',
  ];
  const menuList = `<ul>${modules.map((m, i) => `<li><a href="m${i}.html">${m}</a></li>`).join('')}</ul>`;
  const nodeMenu = `<div id="column2"><div id="intro"><a href="index.html">Node.js</a></div>${menuList}</div>`;

  it("keeps a short page's few lines that follow a long site menu, without the menu", () => {
    const html = `<body><div id="content">${nodeMenu}<div id="column1"><div id="apicontent">
      <h2>Policies<a class="mark" href="#policies">#</a></h2><p>Stability: 1 - Experimental</p>
      <p>The former Policies documentation is now at <a href="permissions.html">Permissions</a>.</p>
      </div></div></div></body>`;
    expect(parseHtml(html).text).toBe(
      'Policies\n\nStability: 1 - Experimental\n\nThe former Policies documentation is now at Permissions.',
    );
    // A menu's own heading still goes with its list.
    const headed = `<body><p>Some words of the page that a reader came to read here.</p><div><h3>Chapters</h3><ul>
      <li><a href="a.html">Getting started</a></li><li><a href="b.html">Guessing game</a></li>
      <li><a href="c.html">Common programming concepts</a></li><li><a href="d.html">Ownership</a></li></ul></div></body>`;
    expect(parseHtml(headed).text).toBe('Some words of the page that a reader came to read here.');
  });

  it("keeps an index page's list of links once, not again as the site menu that repeats it", () => {
    const html = `<body><div id="content">${nodeMenu}<div id="column1"><div id="apicontent">${menuList}</div></div></div></body>`;
    expect(parseHtml(html).text).toBe(modules.join('\n\n'));
  });
});
