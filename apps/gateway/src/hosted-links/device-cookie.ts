import type { Request, Response } from 'express';
import { randomBase62 } from '@ris/mongo';
import { cookieValue } from '../http/request-cookie';

export const DEVICE_COOKIE = 'ris_device';
const DEVICE_ID = /^dev_[A-Za-z0-9]{22}$/;
const YEAR_MS = 365 * 24 * 3600 * 1000;

/**
 * The visitor's device id for the fraud rules (SAME_DEVICE,
 * DEVICE_VELOCITY): a first-party cookie of the links' own origin, set at
 * the first visit and kept a year. HttpOnly, sent only to /r, SameSite=Lax
 * (a link followed from another site is a top-level navigation, which Lax
 * lets through), Secure over https. A value of another shape is replaced.
 */
export function deviceIdOf(req: Request, res: Response): string {
  const known = cookieValue(req, DEVICE_COOKIE);
  if (known && DEVICE_ID.test(known)) return known;
  const id = `dev_${randomBase62(22)}`;
  res.cookie(DEVICE_COOKIE, id, { httpOnly: true, sameSite: 'lax', secure: req.secure, path: '/r', maxAge: YEAR_MS });
  return id;
}
