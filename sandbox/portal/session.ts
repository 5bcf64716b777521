import { timingSafeEqual, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context';
import type { PortalSession } from '../store/accounts-repo';
import type { User } from '../store/admin';
import { ApiError } from '../http/errors';

export const sessionCookie = 'sbx_portal';
/** Double-submit token for the sign-in form, which has no session yet (login CSRF). */
export const loginCsrfCookie = 'sbx_login_csrf';

/** HttpOnly: no script reads it; SameSite=Lax: a cross-site POST does not carry it. */
const cookieOptions = { path: '/', httpOnly: true, sameSite: 'lax' } as const;

export interface SignedIn {
  id: string;
  session: PortalSession;
  user: User;
}

export function currentSession(ctx: SandboxContext, request: FastifyRequest): SignedIn | undefined {
  const id = request.cookies[sessionCookie];
  if (!id) return undefined;
  const session = ctx.store.accounts.getSession(id);
  if (!session) return undefined;
  const user = ctx.store.admin.getUser(session.userId);
  return user ? { id, session, user } : undefined;
}

export function startSession(ctx: SandboxContext, reply: FastifyReply, userId: number): void {
  const { id, session } = ctx.store.accounts.createSession(userId);
  reply.setCookie(sessionCookie, id, { ...cookieOptions, expires: new Date(session.expiresAtMs) });
  reply.clearCookie(loginCsrfCookie, { path: '/' });
}

export function endSession(ctx: SandboxContext, request: FastifyRequest, reply: FastifyReply): void {
  const id = request.cookies[sessionCookie];
  if (id) ctx.store.accounts.deleteSession(id);
  reply.clearCookie(sessionCookie, { path: '/' });
}

export function issueLoginCsrf(request: FastifyRequest, reply: FastifyReply): string {
  const existing = request.cookies[loginCsrfCookie];
  if (existing && existing.length >= 32) return existing;
  const token = randomBytes(32).toString('base64url');
  reply.setCookie(loginCsrfCookie, token, cookieOptions);
  return token;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

const csrfRefused = (): ApiError =>
  new ApiError(
    403,
    'forbidden',
    'The form expired or came from another site. Reload the page and try again.',
  );

/** Every state-changing form carries the session's token. */
export function checkCsrf(signedIn: SignedIn, submitted: string | undefined): void {
  if (submitted === undefined || !sameText(submitted, signedIn.session.csrfToken)) throw csrfRefused();
}

export function checkLoginCsrf(request: FastifyRequest, submitted: string | undefined): void {
  const cookie = request.cookies[loginCsrfCookie];
  if (!cookie || submitted === undefined || !sameText(submitted, cookie)) throw csrfRefused();
}

const probeOrigin = 'http://sandbox.invalid';

/**
 * Only same-origin paths: `return_to` must not become an open redirect. Browsers drop tabs and
 * newlines from URLs (`/\t/evil.example` becomes `//evil.example`) and treat `\` as `/`, so any
 * control character or backslash is refused outright; what passes is re-serialized by the URL
 * parser, so the Location header never carries raw input. The check that matters is on the path
 * the parser made: dot segments collapse (`/.//evil.example` and `/portal/../..//evil.example` both
 * become `//evil.example`, another host to a browser), so the raw text alone proves nothing.
 */
export function safeReturnPath(raw: string | undefined): string {
  const fallback = '/portal';
  // eslint-disable-next-line no-control-regex
  if (!raw || !raw.startsWith('/') || /[\u0000-\u001f\u007f\\]/.test(raw)) return fallback;
  let url: URL;
  try {
    url = new URL(raw, probeOrigin);
  } catch {
    return fallback;
  }
  if (url.origin !== probeOrigin) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.startsWith('//') ? fallback : path;
}

export function redirectToSignIn(reply: FastifyReply, returnTo: string): FastifyReply {
  return reply.redirect(`/portal/sign-in?${new URLSearchParams({ return_to: returnTo }).toString()}`, 303);
}
