import type { RequestHandler } from 'express';
import { ApiError } from '../http/api-error';
import { bearerToken } from '../http/authenticate';
import { contextOf } from '../http/request-context';
import { looksLikeEmbedToken, type EmbedTokens } from './embed-token';

const refused = (code: string, message: string) => new ApiError(401, code, message, undefined, { 'WWW-Authenticate': 'Bearer' });

/**
 * Guards the widget's read endpoints (/embed/v1): an embed token and
 * nothing else, least of all an API key (whose full access a page must
 * never hold). Its app, user and campaign become the request's; its answers
 * are never cached.
 */
export function authenticateEmbed(tokens: EmbedTokens): RequestHandler {
  return (req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    const token = bearerToken(req.header('authorization'));
    if (!token) return next(refused('UNAUTHENTICATED', 'Send the embed token (POST /api/v1/embed-tokens) as Authorization: Bearer et1.…'));
    if (!looksLikeEmbedToken(token)) {
      return next(refused('UNAUTHENTICATED', 'These endpoints take an embed token only (POST /api/v1/embed-tokens), never an API key.'));
    }
    const checked = tokens.check(token);
    if (checked.kind === 'invalid') return next(refused('EMBED_TOKEN_INVALID', 'The embed token is malformed, altered, or not from this deployment.'));
    if (checked.kind === 'expired') return next(refused('EMBED_TOKEN_EXPIRED', 'The embed token has expired: ask your app for a new one.'));
    const context = contextOf(res);
    context.embed = checked.claims;
    context.appId = checked.claims.appId;
    next();
  };
}
