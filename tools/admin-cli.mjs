#!/usr/bin/env node
// Command-line front of the admin API (docs/api.md#admin-api):
//   npm run admin -- create-app "My shop"
//   npm run admin -- issue-key <appId>
//   npm run admin -- list-keys <appId>
//   npm run admin -- revoke-key <appId> <keyId>
// GATEWAY_URL (default http://127.0.0.1:8080) and ADMIN_TOKEN (default: the
// token `npm start` generated in .run/admin-token) say where and as whom.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const gateway = process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080';
const tokenFile = join(root, '.run', 'admin-token');
const token = process.env.ADMIN_TOKEN ?? (existsSync(tokenFile) ? readFileSync(tokenFile, 'utf8').trim() : undefined);

const [command, ...args] = process.argv.slice(2);
const usage = 'usage: npm run admin -- create-app <name> | issue-key <appId> | list-keys <appId> | revoke-key <appId> <keyId>';

const routes = {
  'create-app': ([name]) => name && ['POST', '/apps', { name }],
  'issue-key': ([appId]) => appId && ['POST', `/apps/${encodeURIComponent(appId)}/keys`],
  'list-keys': ([appId]) => appId && ['GET', `/apps/${encodeURIComponent(appId)}/keys`],
  'revoke-key': ([appId, keyId]) =>
    appId && keyId && ['DELETE', `/apps/${encodeURIComponent(appId)}/keys/${encodeURIComponent(keyId)}`],
};

const route = routes[command]?.(args);
if (!route) {
  console.error(usage);
  process.exit(2);
}
if (!token) {
  console.error('ADMIN_TOKEN is not set (and no .run/admin-token from npm start was found).');
  process.exit(2);
}
const [method, path, body] = route;
const res = await fetch(`${gateway}/admin/v1${path}`, {
  method,
  headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
  body: body ? JSON.stringify(body) : undefined,
});
const text = await res.text();
if (text) console.log(JSON.stringify(JSON.parse(text), null, 2));
else console.log(`${res.status} ${res.statusText}`);
process.exit(res.ok ? 0 : 1);
