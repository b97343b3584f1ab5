import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const root = join(__dirname, '..', '..', '..');

/**
 * The repository's files: tracked ones and new ones not ignored (so a file
 * fails here before it is committed). Without git (an unpacked archive), the
 * tree minus what .gitignore leaves out.
 */
function repositoryFiles(): string[] {
  let names: string[];
  try {
    names = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    }).split('\0');
  } catch {
    const skipped = new Set(['.git', 'node_modules', 'dist', '.nx', 'coverage', '.data', '.run']);
    const walk = (dir: string): string[] =>
      readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
        const path = dir ? `${dir}/${entry.name}` : entry.name;
        if (skipped.has(entry.name)) return [];
        return entry.isDirectory() ? walk(path) : [path];
      });
    names = walk('');
  }
  // Regular files only: a deleted tracked file or a symlink (node_modules in a worktree) is not content of ours.
  return [...new Set(names)].filter((name) => name && lstatSync(join(root, name), { throwIfNoEntry: false })?.isFile());
}

/** Text files only: a NUL byte marks a binary one. */
function readText(file: string): string | null {
  const content = readFileSync(join(root, file));
  return content.includes(0) ? null : content.toString('utf8');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown file's headings (outside code blocks), repeats numbered as GitHub does. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]);
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n += 1) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** Line numbers, for messages that say where. */
const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

describe('the repository points only at itself', () => {
  const files = repositoryFiles();
  const texts = new Map<string, string>();
  for (const file of files) {
    const text = readText(file);
    if (text !== null) texts.set(file, text);
  }
  const isInside = (path: string) => path === root || path.startsWith(root + sep);

  /** Whether `target` (absolute) is a file or folder of the repository, and, for a Markdown file, has `anchor`. */
  function problemWith(target: string, anchor: string | undefined): string | null {
    if (!isInside(target)) return 'points outside the repository';
    const name = relative(root, target).split(sep).join('/');
    const isFolder = files.some((f) => f.startsWith(`${name}/`));
    if (!texts.has(name) && !isFolder && !existsSync(target)) return 'points at nothing';
    if (anchor && name.endsWith('.md') && texts.has(name) && !anchorsOf(texts.get(name)!).has(anchor)) {
      return `has no heading #${anchor}`;
    }
    return null;
  }

  it('finds the files to check', () => {
    expect(texts.has('README.md')).toBe(true);
    expect(texts.has('docs/api.md')).toBe(true);
    expect(texts.has('docs/product-decisions.md')).toBe(true);
    expect(texts.size).toBeGreaterThan(100);
  });

  it('mentions no document kept outside it (the contract and decisions are docs/api.md and docs/product-decisions.md)', () => {
    // Assembled from parts, so that this file does not match itself.
    const outside = new RegExp(['\\.\\./' + 'shared', 'shared/' + 'spec', '\\bDECISIONS\\.' + 'md', '(?<![\\w-])API\\.' + 'md'].join('|'), 'g');
    const found: string[] = [];
    for (const [file, text] of texts) {
      for (const match of text.matchAll(outside)) found.push(`${file}:${lineOf(text, match.index)}: ${match[0]}`);
    }
    expect(found).toEqual([]);
  });

  it('links, in every Markdown file, only to files of the repository and headings they have', () => {
    const found: string[] = [];
    for (const [file, text] of texts) {
      if (!file.endsWith('.md')) continue;
      for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const link = match[1];
        if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto:…
        const [path, anchor] = link.split('#');
        const target = path ? resolve(root, dirname(file), decodeURI(path)) : join(root, file);
        const problem = problemWith(target, anchor);
        if (problem) found.push(`${file}:${lineOf(text, match.index)}: ${link} ${problem}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('names, anywhere, only docs/ pages that exist, with the headings cited', () => {
    const found: string[] = [];
    for (const [file, text] of texts) {
      for (const match of text.matchAll(/(?<![\w./-])docs\/([\w-]+\.md)(?:#([\w-]+))?/g)) {
        const problem = problemWith(join(root, 'docs', match[1]), match[2]);
        if (problem) found.push(`${file}:${lineOf(text, match.index)}: ${match[0]} ${problem}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('cites only decisions that docs/product-decisions.md has (§N is a topic, §N.M a decision)', () => {
    const decisions = texts.get('docs/product-decisions.md') ?? '';
    const topics = new Set([...decisions.matchAll(/^## (\d+)\. /gm)].map((m) => m[1]));
    const numbered = new Set([...decisions.matchAll(/^- \*\*(\d+\.\d+) /gm)].map((m) => m[1]));
    expect(topics.size).toBeGreaterThanOrEqual(10);
    const found: string[] = [];
    for (const [file, text] of texts) {
      // "product-decisions.md §4.5", "product decisions §7", ranges and lists: "§1–§2", "§8.2–8.4", "§1.4 and §7.6".
      for (const match of text.matchAll(/product[- ]decisions(?:\.md)?\]?\(?[^)\s]*\)?,? ((?:§?\d+(?:\.\d+)?(?:(?:–|-|, | and )(?=§?\d))?)+)/g)) {
        for (const [cited] of match[1].matchAll(/\d+(?:\.\d+)?/g)) {
          const known = cited.includes('.') ? numbered.has(cited) : topics.has(cited);
          if (!known) found.push(`${file}:${lineOf(text, match.index)}: §${cited} is not in docs/product-decisions.md`);
        }
      }
    }
    expect(found).toEqual([]);
  });
});
