import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { SandboxContext } from '../context';
import { html } from './html';
import { csrfField, page, sendPage } from './layout';
import { parseForm } from './forms';
import { checkCsrf, currentSession, redirectToSignIn } from './session';

const revokeForm = z.object({
  csrf_token: z.string().optional(),
  application_id: z.coerce.number().int().positive(),
});

/** The user's side of OAuth: which applications hold live tokens, and withdrawing them. */
export function registerAuthorizationsPage(app: FastifyInstance, ctx: SandboxContext): void {
  const { oauth } = ctx.store;
  app.get('/portal/authorizations', async (request, reply) => {
    const signedIn = currentSession(ctx, request);
    if (!signedIn) return redirectToSignIn(reply, request.url);
    const list = oauth.userAuthorizations(signedIn.user.id);
    const body = html`<section>
      ${
        list.length === 0
          ? html`<p>No application holds a live token for your account.</p>`
          : html`<table id="authorizations">
              <tr>
                <th>Application</th>
                <th>Live tokens</th>
                <th></th>
              </tr>
              ${list.map(
                (a) =>
                  html`<tr>
                    <td>${a.name}</td>
                    <td>${a.tokens}</td>
                    <td>
                      <form class="inline" method="post" action="/portal/authorizations/revoke">
                        ${csrfField(signedIn.session.csrfToken)}<input
                          type="hidden"
                          name="application_id"
                          value="${a.id}"
                        /><button class="danger">Revoke</button>
                      </form>
                    </td>
                  </tr>`,
              )}
            </table>`
      }
      <p class="muted">
        Revoking ends the application's tokens at once; it must send you through authorization again.
      </p>
    </section>`;
    return sendPage(reply, page('Authorized applications', body, { signedIn, active: 'authorizations' }));
  });

  app.post('/portal/authorizations/revoke', async (request, reply) => {
    const signedIn = currentSession(ctx, request);
    if (!signedIn) return redirectToSignIn(reply, '/portal/authorizations');
    const form = parseForm(revokeForm, request.body);
    checkCsrf(signedIn, form.csrf_token);
    oauth.revokeUserAuthorization(signedIn.user.id, form.application_id);
    return reply.redirect('/portal/authorizations', 303);
  });
}
