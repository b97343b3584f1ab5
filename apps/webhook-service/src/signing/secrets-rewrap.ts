import type { EnvelopeCipher } from '@ris/secrets';
import type { EndpointDoc } from '../endpoints/endpoint.model';
import type { EndpointRepository } from '../endpoints/endpoint.repository';
import { EndpointSecrets } from './endpoint-secrets';

export interface RewrapOptions {
  appId?: string;
  /** Move; false: only count. */
  fix: boolean;
}

export interface RewrapReport {
  currentKeyId: string;
  /** Endpoints looked at. */
  endpoints: number;
  /** Of them, with a secret not under the current master key when looked at. */
  notCurrent: number;
  /** Of those, with a plain secret from before encryption at rest. */
  plaintext: number;
  /** Of those, moved under the current key by this run. */
  moved: number;
  /** Endpoints whose secrets could not be moved (a master key missing from SECRETS_KEYS, an altered record). */
  failed: Array<{ appId: string; webhookId: string; error: string }>;
  /**
   * After the run: stored secrets by the master key that wraps them
   * ("plaintext": not encrypted yet). Nothing outside the current key: the
   * other keys can leave SECRETS_KEYS.
   */
  secretsByKey: Record<string, number>;
}

/** A changed endpoint (rotated meanwhile) is read again and moved again, this many times at most. */
const MOVE_ATTEMPTS = 3;

/**
 * Every endpoint's signing secrets under the current master key: after a
 * key rotation (SECRETS_KEYS gained a new first key), and to encrypt the
 * plain secrets of a database from before encryption at rest. Each move is
 * a single-document update guarded by the secret it read (EndpointSecrets),
 * so it is safe while the service runs and rotates secrets: on MongoDB at
 * any time; on FerretDB, whose conditional update is a read then a write,
 * a rotation of the same endpoint in the same instant could be lost, so
 * run it there when nobody rotates secrets (or with the service stopped).
 *
 * The scan is across apps on purpose, like the other maintenance passes
 * (endpoints are few, next to deliveries); every write carries the
 * endpoint's appId.
 */
export async function rewrapSecrets(endpoints: EndpointRepository, cipher: EnvelopeCipher, options: RewrapOptions): Promise<RewrapReport> {
  const secrets = new EndpointSecrets(endpoints, cipher);
  const report: RewrapReport = { currentKeyId: cipher.currentKeyId, endpoints: 0, notCurrent: 0, plaintext: 0, moved: 0, failed: [], secretsByKey: {} };

  for await (const found of endpoints.every(options.appId)) {
    report.endpoints += 1;
    if (secrets.isCurrent(found)) continue;
    report.notCurrent += 1;
    if (storedSecrets(found).some((secret) => typeof secret === 'string')) report.plaintext += 1;
    if (!options.fix) continue;
    try {
      let endpoint: EndpointDoc | null = found;
      for (let attempt = 0; endpoint && attempt < MOVE_ATTEMPTS; attempt += 1) {
        const outcome = await secrets.moveToCurrentKey(endpoint);
        if (outcome === 'moved') report.moved += 1;
        if (outcome !== 'changed') break;
        endpoint = await endpoints.findById(endpoint.appId, endpoint._id);
      }
    } catch (err) {
      report.failed.push({ appId: found.appId, webhookId: found._id, error: (err as Error).message });
    }
  }

  // Counted afresh: what the moves (and any rotation meanwhile) left.
  for await (const endpoint of endpoints.secretsOfEvery(options.appId)) {
    for (const secret of storedSecrets(endpoint)) {
      const keyId = typeof secret === 'string' ? 'plaintext' : String(secret.keyId);
      report.secretsByKey[keyId] = (report.secretsByKey[keyId] ?? 0) + 1;
    }
  }
  return report;
}

const storedSecrets = (endpoint: Pick<EndpointDoc, 'secret' | 'previousSecrets'>) => [endpoint.secret, ...endpoint.previousSecrets.map((p) => p.secret)];

/** How many stored secrets are not under the current key (the command fails while any are). */
export function secretsNotCurrent(report: RewrapReport): number {
  return Object.entries(report.secretsByKey).reduce((sum, [keyId, count]) => (keyId === report.currentKeyId ? sum : sum + count), 0);
}
