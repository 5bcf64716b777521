import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { SandboxContext } from '../context';
import { grantableScopes } from '../../shared/auth/scopes';
import { maxTokenExpiry } from '../auth/tokens';
import { AdminError, type User } from '../store/admin';
import type { OAuthApplication } from '../store/oauth-repo';
import { registrationProblem, splitRedirectUris } from '../oauth/redirect-uri';
import { scopeDescriptions } from '../oauth/scope-descriptions';
import { html, type SafeHtml } from './html';
import { csrfField, page, sendPage } from './layout';
import { idParams, multiValue, parseForm } from './forms';
import { checkCsrf, currentSession, redirectToSignIn, type SignedIn } from './session';

const day = 24 * 3600_000;
const isoDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

const tokenForm = z.object({
  csrf_token: z.string().optional(),
  name: z.string().trim().min(1, 'a name is required').max(255),
  expires_on: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'use YYYY-MM-DD'),
  scopes: multiValue,
});
const applicationForm = z.object({
  csrf_token: z.string().optional(),
  name: z.string().trim().min(1, 'a name is required').max(255),
  redirect_uris: z.string().default(''),
});
const csrfOnly = z.object({ csrf_token: z.string().optional() });

type PartnerUser = SignedIn & { user: User & { data_partner_id: number } };

function hasPartner(s: SignedIn): s is PartnerUser {
  return s.user.data_partner_id !== null;
}

/** The spec's Data Partners tab: tokens (shown once), OAuth applications. */
export function registerPartnerPages(app: FastifyInstance, ctx: SandboxContext): void {
  const { admin, oauth } = ctx.store;

  /** The signed-in partner user, or the reply already sent (sign-in redirect or 403 page). */
  const partnerUser = (request: FastifyRequest, reply: FastifyReply): PartnerUser | FastifyReply => {
    const signedIn = currentSession(ctx, request);
    if (!signedIn)
      return redirectToSignIn(reply, request.method === 'GET' ? request.url : '/portal/data-partners');
    if (!hasPartner(signedIn)) {
      const body = html`<p>
        Your portal account has no data partner account assigned, so there is no Data Partners tab.
      </p>`;
      return sendPage(reply, page('Data Partners', body, { signedIn }), 403);
    }
    return signedIn;
  };
  const ownApplication = (s: PartnerUser, raw: unknown): OAuthApplication | undefined => {
    const parsed = idParams.safeParse(raw);
    const application = parsed.success ? oauth.getApplication(parsed.data.id) : undefined;
    return application?.data_partner_id === s.user.data_partner_id ? application : undefined;
  };

  const overview = (
    reply: FastifyReply,
    s: PartnerUser,
    extra: { error?: string; banner?: SafeHtml } = {},
  ) => {
    const partnerId = s.user.data_partner_id;
    const partner = admin.getDataPartner(partnerId);
    const nowMs = ctx.now();
    const tokens = admin.listAccessTokens(partnerId).filter((t) => t.kind === 'partner');
    const applications = oauth.listApplications(partnerId);
    const csrf = csrfField(s.session.csrfToken);
    const body = html`${extra.banner ?? ''}${extra.error ? html`<p class="error" role="alert">${extra.error}</p>` : ''}
      <p class="muted">
        Data partner account: <strong>${partner?.name ?? ''}</strong>. Entities granted to it:
        ${
          admin
            .listGrantedEntities(partnerId)
            .map((e) => e.name)
            .join(', ') || 'none yet'
        }.
      </p>
      <section>
        <h2>Access tokens</h2>
        <table id="tokens">
          <tr>
            <th>Name</th>
            <th>Scopes</th>
            <th>Expires</th>
            <th>Status</th>
            <th>Last used</th>
            <th></th>
          </tr>
          ${tokens.map(
            (t) =>
              html`<tr>
                <td>${t.name}</td>
                <td>${t.scopes.filter((x) => x !== 'public').join(' ')}</td>
                <td>${t.expires_at.slice(0, 10)}</td>
                <td>
                  ${Date.parse(t.expires_at) > nowMs ? 'Active' : html`<span class="muted">Expired</span>`}
                </td>
                <td>${t.last_used_at ?? 'never'}</td>
                <td>
                  <form class="inline" method="post" action="/portal/data-partners/tokens/${t.id}/delete">
                    ${csrf}<button class="danger">Delete</button>
                  </form>
                </td>
              </tr>`,
          )}
        </table>
        <h3>Generate a token</h3>
        <form method="post" action="/portal/data-partners/tokens">
          ${csrf}
          <label>Name <input type="text" name="name" id="token-name" required maxlength="255" /></label>
          <label
            >Expires on (at most 1 year)
            <input
              type="date"
              name="expires_on"
              id="token-expiry"
              value="${isoDate(nowMs + 90 * day)}"
              min="${isoDate(nowMs + day)}"
              max="${isoDate(maxTokenExpiry(nowMs) - day)}"
              required
          /></label>
          <fieldset>
            <legend>Scopes</legend>
            ${grantableScopes.map(
              (sc) =>
                html`<label
                  ><input type="checkbox" name="scopes" value="${sc}" checked /> <code>${sc}</code> –
                  ${scopeDescriptions[sc]}</label
                >`,
            )}
          </fieldset>
          <button id="generate-token">Generate token</button>
        </form>
      </section>
      <section>
        <h2>OAuth applications</h2>
        <table id="applications">
          <tr>
            <th>Name</th>
            <th>client_id</th>
            <th>Redirect URIs</th>
            <th></th>
          </tr>
          ${applications.map(
            (a) =>
              html`<tr>
                <td>${a.name}</td>
                <td><code>${a.uid}</code></td>
                <td>${a.redirect_uris.map((u) => html`<code>${u}</code><br />`)}</td>
                <td><a href="/portal/data-partners/applications/${a.id}">Edit</a></td>
              </tr>`,
          )}
        </table>
        <h3>Register an application</h3>
        <form method="post" action="/portal/data-partners/applications">
          ${csrf}
          <label>Name <input type="text" name="name" id="app-name" required maxlength="255" /></label>
          <label
            >Redirect URIs, one per line
            <textarea
              name="redirect_uris"
              id="app-redirect-uris"
              rows="3"
              required
              placeholder="http://127.0.0.1/"
            ></textarea>
          </label>
          <p class="muted">
            A loopback URI (<code>http://127.0.0.1/</code>, <code>http://[::1]/</code>,
            <code>http://localhost/</code>) matches that host on any port; with path <code>/</code> it matches
            any path (RFC 8252). <code>urn:ietf:wg:oauth:2.0:oob</code> shows the code in the browser instead
            of redirecting.
          </p>
          <button id="register-app">Register application</button>
        </form>
      </section>`;
    return sendPage(
      reply,
      page('Data Partners', body, { signedIn: s, active: 'partners' }),
      extra.error ? 400 : 200,
    );
  };

  const checkRedirectUris = (text: string): { uris: string[] } | { error: string } => {
    const uris = [...new Set(splitRedirectUris(text))];
    if (uris.length === 0) return { error: 'Give at least one redirect URI.' };
    const problems = uris.map(registrationProblem).filter((p): p is string => p !== undefined);
    return problems.length > 0 ? { error: problems.join('; ') } : { uris };
  };

  app.get('/portal/data-partners', async (request, reply) => {
    const s = partnerUser(request, reply);
    return 'user' in s ? overview(reply, s) : s;
  });

  app.post('/portal/data-partners/tokens', async (request, reply) => {
    const s = partnerUser(request, reply);
    if (!('user' in s)) return s;
    checkCsrf(s, parseForm(csrfOnly.loose(), request.body).csrf_token);
    const form = tokenForm.safeParse(request.body);
    if (!form.success)
      return overview(reply, s, { error: `Token not generated: ${form.error.issues[0]?.message ?? ''}` });
    try {
      const created = admin.createAccessToken({
        dataPartnerId: s.user.data_partner_id,
        name: form.data.name,
        scopes: form.data.scopes,
        // Valid through the chosen day; past the one-year maximum the store refuses it.
        expiresAt: Date.parse(`${form.data.expires_on}T23:59:59Z`),
      });
      const banner = html`<section class="notice">
        <p>Token <strong>${created.name}</strong> generated. Copy it now: it is shown only once.</p>
        <code class="secret" id="new-token">${created.token}</code>
      </section>`;
      return overview(reply, s, { banner });
    } catch (error) {
      if (error instanceof AdminError)
        return overview(reply, s, { error: `Token not generated: ${error.message}` });
      throw error;
    }
  });

  app.post('/portal/data-partners/tokens/:id/delete', async (request, reply) => {
    const s = partnerUser(request, reply);
    if (!('user' in s)) return s;
    checkCsrf(s, parseForm(csrfOnly, request.body).csrf_token);
    const { id } = parseForm(idParams, request.params);
    if (admin.listAccessTokens(s.user.data_partner_id).some((t) => t.id === id && t.kind === 'partner'))
      admin.deleteAccessToken(id);
    return reply.redirect('/portal/data-partners', 303);
  });

  app.post('/portal/data-partners/applications', async (request, reply) => {
    const s = partnerUser(request, reply);
    if (!('user' in s)) return s;
    checkCsrf(s, parseForm(csrfOnly.loose(), request.body).csrf_token);
    const form = applicationForm.safeParse(request.body);
    if (!form.success)
      return overview(reply, s, {
        error: `Application not registered: ${form.error.issues[0]?.message ?? ''}`,
      });
    const uris = checkRedirectUris(form.data.redirect_uris);
    if ('error' in uris) return overview(reply, s, { error: `Application not registered: ${uris.error}` });
    const created = oauth.createApplication({
      dataPartnerId: s.user.data_partner_id,
      name: form.data.name,
      redirectUris: uris.uris,
    });
    const banner = html`<section class="notice">
      <p>
        Application <strong>${created.name}</strong> registered. Copy the client secret now: it is shown only
        once (you can generate a new one later).
      </p>
      <p>client_id <code class="secret" id="client-id">${created.uid}</code></p>
      <p>client_secret <code class="secret" id="client-secret">${created.secret}</code></p>
    </section>`;
    return overview(reply, s, { banner });
  });

  const applicationPage = (
    reply: FastifyReply,
    s: PartnerUser,
    a: OAuthApplication,
    extra: { error?: string; banner?: SafeHtml } = {},
  ) => {
    const csrf = csrfField(s.session.csrfToken);
    const body = html`${extra.banner ?? ''}${extra.error ? html`<p class="error" role="alert">${extra.error}</p>` : ''}
      <section>
        <p>client_id <code>${a.uid}</code></p>
        <form method="post" action="/portal/data-partners/applications/${a.id}">
          ${csrf}
          <label>Name <input type="text" name="name" value="${a.name}" required maxlength="255" /></label>
          <label
            >Redirect URIs, one per line
            <textarea name="redirect_uris" rows="4">${a.redirect_uris.join('\n')}</textarea>
          </label>
          <button>Save</button>
        </form>
      </section>
      <section>
        <form class="inline" method="post" action="/portal/data-partners/applications/${a.id}/secret">
          ${csrf}<button class="secondary">Generate a new client secret</button>
        </form>
        <form class="inline" method="post" action="/portal/data-partners/applications/${a.id}/delete">
          ${csrf}<button class="danger">Delete application</button>
        </form>
        <p class="muted">Deleting the application ends every token it holds.</p>
      </section>
      <p><a href="/portal/data-partners">Back to Data Partners</a></p>`;
    return sendPage(
      reply,
      page(`Application: ${a.name}`, body, { signedIn: s, active: 'partners' }),
      extra.error ? 400 : 200,
    );
  };
  const notFoundPage = (reply: FastifyReply, s: PartnerUser) =>
    sendPage(
      reply,
      page('Not found', html`<p>Your data partner has no such application.</p>`, { signedIn: s }),
      404,
    );

  app.get('/portal/data-partners/applications/:id', async (request, reply) => {
    const s = partnerUser(request, reply);
    if (!('user' in s)) return s;
    const a = ownApplication(s, request.params);
    return a ? applicationPage(reply, s, a) : notFoundPage(reply, s);
  });

  app.post('/portal/data-partners/applications/:id', async (request, reply) => {
    const s = partnerUser(request, reply);
    if (!('user' in s)) return s;
    checkCsrf(s, parseForm(csrfOnly.loose(), request.body).csrf_token);
    const a = ownApplication(s, request.params);
    if (!a) return notFoundPage(reply, s);
    const form = applicationForm.safeParse(request.body);
    if (!form.success)
      return applicationPage(reply, s, a, { error: form.error.issues[0]?.message ?? 'Check the form' });
    const uris = checkRedirectUris(form.data.redirect_uris);
    if ('error' in uris) return applicationPage(reply, s, a, { error: uris.error });
    oauth.updateApplication(a.id, { name: form.data.name, redirectUris: uris.uris });
    return reply.redirect(`/portal/data-partners/applications/${a.id}`, 303);
  });

  app.post('/portal/data-partners/applications/:id/secret', async (request, reply) => {
    const s = partnerUser(request, reply);
    if (!('user' in s)) return s;
    checkCsrf(s, parseForm(csrfOnly, request.body).csrf_token);
    const a = ownApplication(s, request.params);
    if (!a) return notFoundPage(reply, s);
    const secret = oauth.regenerateSecret(a.id);
    const banner = html`<section class="notice">
      <p>New client secret (shown once; the old one no longer works):</p>
      <code class="secret" id="client-secret">${secret}</code>
    </section>`;
    return applicationPage(reply, s, a, { banner });
  });

  app.post('/portal/data-partners/applications/:id/delete', async (request, reply) => {
    const s = partnerUser(request, reply);
    if (!('user' in s)) return s;
    checkCsrf(s, parseForm(csrfOnly, request.body).csrf_token);
    const a = ownApplication(s, request.params);
    if (!a) return notFoundPage(reply, s);
    oauth.deleteApplication(a.id);
    return reply.redirect('/portal/data-partners', 303);
  });
}
