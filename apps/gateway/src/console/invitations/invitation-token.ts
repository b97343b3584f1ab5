import { createHash, randomBytes } from 'node:crypto';

/**
 * An invitation link's token: 32 bytes from the CSPRNG in base64url (43
 * characters, 256 bits: as long as a session id), so guessing one is out
 * of reach; the guesses tried are slowed all the same (InvitationGuesses).
 */
export const INVITATION_TOKEN_PATTERN = '^[A-Za-z0-9_-]{43}$';

export const newInvitationToken = (): string => randomBytes(32).toString('base64url');

/** What is stored of a token (the token itself is only in the link). */
export const invitationTokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');
