import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { SandboxContext } from '../context';
import { html } from './html';
import { page, sendPage } from './layout';
import { parseForm, parseQuery } from './forms';
import {
  checkCsrf,
  checkLoginCsrf,
  currentSession,
  endSession,
  issueLoginCsrf,
  safeReturnPath,
  startSession,
} from './session';
import { demoUserEmail } from '../demo-user';

const signInQuery = z.object({ return_to: z.string().optional() });
const signInForm = z.object({
  email: z.string(),
  password: z.string(),
  return_to: z.string().optional(),
  csrf_token: z.string().optional(),
});
const signOutForm = z.object({ csrf_token: z.string().optional() });

function sendSignIn(
  request: FastifyRequest,
  reply: FastifyReply,
  returnTo: string,
  opts: { email?: string; error?: string } = {},
): FastifyReply {
  const csrf = issueLoginCsrf(request, reply);
  const body = html`${opts.error ? html`<p class="error" role="alert">${opts.error}</p>` : ''}
    <section>
      <form method="post" action="/portal/sign-in">
        <input type="hidden" name="csrf_token" value="${csrf}" /><input
          type="hidden"
          name="return_to"
          value="${returnTo}"
        />
        <label
          >Email <input type="email" name="email" id="email" value="${opts.email ?? ''}" required autofocus
        /></label>
        <label>Password <input type="password" name="password" id="password" required /></label>
        <button id="sign-in">Sign in</button>
      </form>
    </section>
    <p class="muted">
      Local sandbox: the demo user is <code>${demoUserEmail}</code>; its password is made for this install and
      shown by Asset Desk where you sign in (or by <code>npm run sandbox</code> in its terminal).
    </p>`;
  return sendPage(reply, page('Sign in', body), opts.error ? 401 : 200);
}

export function registerSignInRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.get('/portal/sign-in', async (request, reply) => {
    const { return_to } = parseQuery(signInQuery, request.query);
    const returnTo = safeReturnPath(return_to);
    if (currentSession(ctx, request)) return reply.redirect(returnTo, 303);
    return sendSignIn(request, reply, returnTo);
  });

  app.post('/portal/sign-in', async (request, reply) => {
    const form = parseForm(signInForm, request.body);
    checkLoginCsrf(request, form.csrf_token);
    const returnTo = safeReturnPath(form.return_to);
    const user = ctx.store.accounts.verifyCredentials(form.email, form.password);
    if (!user)
      return sendSignIn(request, reply, returnTo, {
        email: form.email,
        error: 'The email or password is wrong.',
      });
    startSession(ctx, reply, user.id);
    return reply.redirect(returnTo, 303);
  });

  app.post('/portal/sign-out', async (request, reply) => {
    const signedIn = currentSession(ctx, request);
    if (signedIn) {
      checkCsrf(signedIn, parseForm(signOutForm, request.body).csrf_token);
      endSession(ctx, request, reply);
    }
    return reply.redirect('/portal/sign-in', 303);
  });
}
