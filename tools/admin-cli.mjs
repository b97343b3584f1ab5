#!/usr/bin/env node
// Command-line front of the admin API (docs/api.md#admin-api; README "Apps and API keys", "Operators"):
//   npm run admin -- create-app "My shop"
//   npm run admin -- issue-key <appId>
//   npm run admin -- list-keys <appId>
//   npm run admin -- revoke-key <appId> <keyId>
//   npm run admin -- create-operator <email> [--admin]
//   npm run admin -- list-operators
//   npm run admin -- reset-password <email|operatorId>
//   npm run admin -- add-member <appId> <email|operatorId> <OWNER|MANAGER|VIEWER>
// GATEWAY_URL (default http://127.0.0.1:8080) and ADMIN_TOKEN (default: the
// token `npm start` generated in .run/admin-token) say where and as whom.
// create-operator and reset-password take the password from OPERATOR_PASSWORD
// (never from the command line, where other users' `ps` would see it), else
// one is generated and shown once.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const gateway = process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080';
const tokenFile = join(root, '.run', 'admin-token');
const token = process.env.ADMIN_TOKEN ?? (existsSync(tokenFile) ? readFileSync(tokenFile, 'utf8').trim() : undefined);
const password = process.env.OPERATOR_PASSWORD || undefined;

const [command, ...args] = process.argv.slice(2);
const usage = [
  'usage: npm run admin -- <command>',
  '  create-app <name> | issue-key <appId> | list-keys <appId> | revoke-key <appId> <keyId>',
  '  create-operator <email> [--admin] | list-operators | reset-password <email|operatorId>',
  '  add-member <appId> <email|operatorId> <OWNER|MANAGER|VIEWER>',
  'create-operator and reset-password use OPERATOR_PASSWORD when set, else generate a password and show it once.',
].join('\n');

const enc = encodeURIComponent;

async function call(method, path, body) {
  const res = await fetch(`${gateway}/admin/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { res, text, json: text ? JSON.parse(text) : undefined };
}

/** An operator id, from itself or from an email (looked up). */
async function operatorId(emailOrId) {
  if (!emailOrId.includes('@')) return emailOrId;
  const { res, text, json } = await call('GET', `/operators?email=${enc(emailOrId)}`);
  if (!res.ok) {
    console.error(`looking up ${emailOrId} failed: ${res.status} ${text}`);
    process.exit(1);
  }
  const id = json.operators[0]?.id;
  if (!id) {
    console.error(`no operator with email ${emailOrId}`);
    process.exit(1);
  }
  return id;
}

const commands = {
  'create-app': ([name]) => name && (() => call('POST', '/apps', { name })),
  'issue-key': ([appId]) => appId && (() => call('POST', `/apps/${enc(appId)}/keys`)),
  'list-keys': ([appId]) => appId && (() => call('GET', `/apps/${enc(appId)}/keys`)),
  'revoke-key': ([appId, keyId]) => appId && keyId && (() => call('DELETE', `/apps/${enc(appId)}/keys/${enc(keyId)}`)),
  'create-operator': ([email, flag]) =>
    email && (flag === undefined || flag === '--admin') && (() => call('POST', '/operators', { email, isAdmin: flag === '--admin', ...(password ? { password } : {}) })),
  'list-operators': () => () => call('GET', '/operators?limit=100'),
  'reset-password': ([who]) => who && (async () => call('POST', `/operators/${enc(await operatorId(who))}/password`, password ? { password } : {})),
  'add-member': ([appId, who, role]) =>
    appId && who && role && (async () => call('PUT', `/apps/${enc(appId)}/members/${enc(await operatorId(who))}`, { role: role.toUpperCase() })),
};

const run = commands[command]?.(args);
if (!run) {
  console.error(usage);
  process.exit(2);
}
if (!token) {
  console.error('ADMIN_TOKEN is not set (and no .run/admin-token from npm start was found).');
  process.exit(2);
}
const { res, text, json } = await run();
if (text) console.log(JSON.stringify(json, null, 2));
else console.log(`${res.status} ${res.statusText}`);
process.exit(res.ok ? 0 : 1);
