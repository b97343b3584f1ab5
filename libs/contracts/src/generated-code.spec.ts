import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const bin = join(root, 'node_modules', '.bin');
const env = { ...process.env, PATH: `${bin}:${process.env.PATH}` };

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

// The contracts are checked by buf lint, and the committed TypeScript must
// be exactly what `npm run proto:generate` writes from them.
describe('proto contracts', () => {
  it('pass buf lint', () => {
    expect(() => execFileSync(join(bin, 'buf'), ['lint'], { cwd: root, env, stdio: 'pipe' })).not.toThrow();
  });

  it('match the committed generated code', () => {
    const out = mkdtempSync(join(tmpdir(), 'contracts-'));
    try {
      const template = readFileSync(join(root, 'buf.gen.yaml'), 'utf8').replace('out: libs/contracts/src/gen', `out: ${out}`);
      execFileSync(join(bin, 'buf'), ['generate', '--template', template], { cwd: root, env, stdio: 'pipe' });
      const committedDir = join(root, 'libs', 'contracts', 'src', 'gen');
      const fresh = files(out).map((f) => relative(out, f)).sort();
      expect(fresh).toEqual(files(committedDir).map((f) => relative(committedDir, f)).sort());
      for (const file of fresh) {
        expect([file, readFileSync(join(committedDir, file), 'utf8')]).toEqual([file, readFileSync(join(out, file), 'utf8')]);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
