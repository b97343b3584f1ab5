import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..', '..');

/** The `st` that tools/infra/up.sh installed (SCHEMATHESIS in .run/infra.env), or the one SCHEMATHESIS names. */
export function schemathesisBinary(): string {
  if (process.env.SCHEMATHESIS) return process.env.SCHEMATHESIS;
  const file = join(root, '.run', 'infra.env');
  const line = existsSync(file) ? readFileSync(file, 'utf8').split('\n').find((l) => l.startsWith('SCHEMATHESIS=')) : undefined;
  const bin = line?.slice('SCHEMATHESIS='.length).trim();
  if (!bin || !existsSync(bin)) throw new Error('Schemathesis is not installed: run bash tools/infra/up.sh (npm test does)');
  return bin;
}

/**
 * One identity of a Web Fuzzing Commons auth document: a name and its
 * Bearer token, or a dashboard operator who signs in (POST
 * /console/v1/session) and sends the session cookie it gets.
 */
export type FuzzIdentity = { name: string; token: string } | { name: string; signIn: { email: string; password: string } };

function wfcAuth(identity: FuzzIdentity) {
  if ('token' in identity) return { name: identity.name, fixedHeaders: [{ name: 'Authorization', value: `Bearer ${identity.token}` }] };
  return {
    name: identity.name,
    loginEndpointAuth: {
      endpoint: '/console/v1/session',
      verb: 'POST',
      contentType: 'application/json',
      payloadRaw: JSON.stringify(identity.signIn),
      expectCookies: true,
    },
  };
}

export interface FuzzRun {
  /** Where the config, the auth document, the report and the full output go. */
  dir: string;
  schemaUrl: string;
  seed: number;
  /** The config file's body (schemathesis.toml, examples per operation included); `auth.wfc` is added. */
  config: string;
  identities: FuzzIdentity[];
  /** Identities whose objects must stay private to each other (object_level_authorization). */
  peers?: string[];
  /** Extra `st run` options (operation filters). */
  args?: string[];
  /** Load schemathesis_hooks.py (next to this file) with these settings of its own. */
  hooks?: Record<string, string>;
}

/**
 * Runs `st run` once and resolves with its output when it found nothing;
 * rejects with the findings (Schemathesis prints each with a curl line to
 * reproduce it) when it found anything, or when it could not run.
 */
export async function runSchemathesis(run: FuzzRun): Promise<string> {
  mkdirSync(run.dir, { recursive: true });
  const authFile = join(run.dir, 'auth.json');
  writeFileSync(
    authFile,
    JSON.stringify({ auth: run.identities.map(wfcAuth) }),
    { mode: 0o600 },
  );
  const peers = run.peers ? `peers = ${JSON.stringify(run.peers)}\n` : '';
  const configFile = join(run.dir, 'schemathesis.toml');
  writeFileSync(configFile, `${run.config}\n[auth.wfc]\npath = ${JSON.stringify(authFile)}\n${peers}`);
  const args = [
    '--config-file', configFile,
    'run', run.schemaUrl,
    '--seed', String(run.seed),
    // Every run starts from its seed alone, not from examples a previous run stored.
    '--generation-database', 'none',
    '--no-color',
    '--report', 'junit',
    '--report-dir', run.dir,
    ...(run.args ?? []),
  ];
  const output = await new Promise<{ code: number | null; text: string }>((resolve, reject) => {
    const hooks = run.hooks ? { ...run.hooks, PYTHONPATH: __dirname, SCHEMATHESIS_HOOKS: 'schemathesis_hooks' } : {};
    const child = spawn(schemathesisBinary(), args, { cwd: run.dir, env: { ...process.env, NO_COLOR: '1', COLUMNS: '120', ...hooks } });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, text }));
  });
  writeFileSync(join(run.dir, 'output.txt'), output.text);
  if (output.code === 0) return output.text;
  // The findings (each with how to reproduce it) and the summary; the whole output is in output.txt.
  const start = output.text.search(/=+ (FAILURES|ERRORS) =+/);
  const findings = start >= 0 ? output.text.slice(start) : output.text;
  throw new Error(
    `Schemathesis exited with ${output.code} (seed ${run.seed}; full output in ${join(run.dir, 'output.txt')}):\n\n` +
      (findings.length > 40_000 ? `${findings.slice(0, 20_000)}\n…\n${findings.slice(-20_000)}` : findings),
  );
}
