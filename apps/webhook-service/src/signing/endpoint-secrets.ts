import { conflict } from '@ris/domain-errors';
import { SerialByKey } from '@ris/mongo';
import type { EnvelopeCipher, SealedSecret } from '@ris/secrets';
import type { EndpointDoc, PreviousSecret, StoredSecret } from '../endpoints/endpoint.model';
import type { EndpointRepository } from '../endpoints/endpoint.repository';
import { generateSecret } from './signing';

/** What of an endpoint its secrets are bound to, and what they are. */
export type EndpointSecretFields = Pick<EndpointDoc, '_id' | 'appId' | 'secret' | 'previousSecrets'>;

/** After a rotation the previous secret keeps signing this long, so receivers can switch over. */
export const SECRET_ROTATION_GRACE_MS = 24 * 3600 * 1000;
const ROTATE_ATTEMPTS = 5;

/**
 * What a sealed secret is bound to (its additional authenticated data):
 * copied into another endpoint, or another app, it does not open.
 */
const contextOf = (endpoint: Pick<EndpointDoc, '_id' | 'appId'>) => ['webhook-endpoint-secret', endpoint.appId, endpoint._id];

/** moveToCurrentKey: moved now, already there, or the endpoint's secrets changed meanwhile (read it again). */
export type SecretMove = 'moved' | 'current' | 'changed';

/**
 * Custody of the endpoints' signing secrets: sealed (libs/secrets) before
 * they are stored, opened only to sign, and moved under the current master
 * key when they are not under it: after a key rotation, and for the plain
 * secrets of a database from before encryption at rest. The service moves
 * an endpoint's secrets when it delivers to it; `tools/webhook-rewrap-secrets.mjs`
 * moves the rest.
 */
export class EndpointSecrets {
  /**
   * This process's secret writes to one endpoint run one at a time: FerretDB
   * runs a conditional update as a read then a write, so a rotation and a
   * rewrap side by side could otherwise both pass their guard.
   */
  private readonly writes = new SerialByKey();

  /** Secrets opened per endpoint document read (not per endpoint: a rotation or a move is a new read). */
  private readonly opened = new WeakMap<EndpointSecretFields, { secrets: string[]; at: Date; until: Date }>();

  constructor(
    private readonly endpoints: EndpointRepository,
    private readonly cipher: EnvelopeCipher,
  ) {}

  seal(endpoint: Pick<EndpointDoc, '_id' | 'appId'>, secret: string): SealedSecret {
    return this.cipher.seal(secret, contextOf(endpoint));
  }

  /**
   * The secrets that sign a delivery now, in clear: the current one, then
   * any still in its grace period. Throws UnknownKeyError or
   * SecretDecryptionError (libs/secrets) when one does not open.
   */
  active(endpoint: EndpointSecretFields, now: Date = new Date()): string[] {
    // The dispatcher signs every attempt with the endpoint it read (kept a second, EndpointLookup):
    // opened once per read, not twice an AES-GCM per attempt; as long as the read is kept, and no longer.
    const opened = this.opened.get(endpoint);
    if (opened && opened.at <= now && now < opened.until) return opened.secrets;
    const previous = endpoint.previousSecrets.filter((p) => p.expiresAt > now);
    const secrets = [endpoint.secret, ...previous.map((p) => p.secret)].map((secret) =>
      typeof secret === 'string' ? secret : this.cipher.openText(secret, contextOf(endpoint)),
    );
    // Good until the first previous secret expires (then the list is shorter).
    this.opened.set(endpoint, { secrets, at: now, until: new Date(Math.min(...previous.map((p) => p.expiresAt.getTime()), 8.64e15)) });
    return secrets;
  }

  /** The current secret in clear (what a create or rotation answered). */
  current(endpoint: EndpointSecretFields): string {
    return this.active(endpoint, new Date(0))[0];
  }

  /** Is every stored secret, expired ones too (a move drops those), sealed under the current master key? */
  isCurrent(endpoint: EndpointSecretFields): boolean {
    return [endpoint.secret, ...endpoint.previousSecrets.map((p) => p.secret)].every(
      (secret) => typeof secret !== 'string' && this.cipher.isCurrent(secret),
    );
  }

  /**
   * Rewraps the endpoint's secrets under the current master key (sealing a
   * plain one), drops expired previous secrets, and stores them if the
   * endpoint's current secret is still the one in `endpoint`. The values
   * and updatedAt stay as they are: nothing the API shows changes.
   */
  moveToCurrentKey(endpoint: EndpointSecretFields, now: Date = new Date()): Promise<SecretMove> {
    return this.writes.run(endpoint._id, async () => {
      if (this.isCurrent(endpoint)) return 'current';
      const written = await this.endpoints.storeSecretsIfUnchanged(endpoint, {
        secret: this.toCurrentKey(endpoint, endpoint.secret),
        previousSecrets: this.stillValid(endpoint, endpoint.previousSecrets, now),
      });
      return written ? 'moved' : 'changed';
    });
  }

  /**
   * A new current secret; the replaced one signs too for 24 h, and all of
   * them are stored under the current master key. Guarded by the secret it
   * replaces, so two concurrent rotations cannot both "win" and leave a
   * caller holding a secret that was overwritten. `load` reads the endpoint
   * (and throws NotFound).
   */
  rotate(endpointId: string, load: () => Promise<EndpointDoc>, operationKey = ''): Promise<{ endpoint: EndpointDoc; secret: string }> {
    return this.writes.run(endpointId, async () => {
      for (let attempt = 0; attempt < ROTATE_ATTEMPTS; attempt += 1) {
        const current = await load();
        const now = new Date();
        const secret = generateSecret();
        const previousSecrets: PreviousSecret[] = [
          { secret: this.toCurrentKey(current, current.secret), expiresAt: new Date(now.getTime() + SECRET_ROTATION_GRACE_MS) },
          ...this.stillValid(current, current.previousSecrets, now),
        ];
        const endpoint = await this.endpoints.rotateIfUnchanged(current, {
          secret: this.seal(current, secret),
          previousSecrets,
          secretSetByOperation: operationKey || null,
          updatedAt: now,
        });
        if (endpoint) return { endpoint, secret };
      }
      throw conflict('CONFLICT', 'The secret was rotated concurrently; try again.');
    });
  }

  private stillValid(endpoint: EndpointSecretFields, previous: PreviousSecret[], now: Date): PreviousSecret[] {
    return previous.filter((p) => p.expiresAt > now).map((p) => ({ secret: this.toCurrentKey(endpoint, p.secret), expiresAt: p.expiresAt }));
  }

  private toCurrentKey(endpoint: EndpointSecretFields, secret: StoredSecret): SealedSecret {
    return typeof secret === 'string' ? this.seal(endpoint, secret) : this.cipher.rewrap(secret);
  }
}
