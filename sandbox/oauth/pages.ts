import type { FastifyReply } from 'fastify';
import { html } from '../portal/html';
import { csrfField, page, sendPage } from '../portal/layout';
import type { SignedIn } from '../portal/session';
import { authorizationParams, type AuthorizationRequest } from './authorization-request';
import type { OAuthError } from './errors';
import { scopeDescriptions } from './scope-descriptions';

export function sendOAuthErrorPage(
  reply: FastifyReply,
  error: OAuthError,
  signedIn?: SignedIn,
): FastifyReply {
  const body = html`<section class="error">
    <p><strong>${error.code}</strong>: ${error.description}</p>
    <p>
      The application that sent you here is misconfigured or the link is broken. Return to it and start again.
    </p>
  </section>`;
  return sendPage(
    reply,
    page('Authorization failed', body, { signedIn }),
    error.status === 401 ? 400 : error.status,
  );
}

export function sendConsentPage(
  reply: FastifyReply,
  req: AuthorizationRequest,
  signedIn: SignedIn,
): FastifyReply {
  const hidden = Object.entries(authorizationParams(req)).map(
    ([k, v]) => html`<input type="hidden" name="${k}" value="${v}" />`,
  );
  const target = req.redirectUri === 'urn:ietf:wg:oauth:2.0:oob' ? 'shown on the next page' : req.redirectUri;
  const body = html`<section>
    <p><strong>${req.application.name}</strong> asks to use your account, ${signedIn.user.email}.</p>
    <p>It will be able to:</p>
    <ul>
      ${req.scopes.map((s) => html`<li><code>${s}</code> – ${scopeDescriptions[s]}</li>`)}
    </ul>
    <p class="muted">
      It reaches only the entities you can access that have granted its data partner access. The permission
      lasts 2 hours. The code goes to: <code>${target}</code>
    </p>
    <form method="post" action="/oauth/authorize">
      ${hidden}${csrfField(signedIn.session.csrfToken)}
      <button name="decision" value="approve" id="authorize">Authorize</button>
      <button name="decision" value="deny" id="deny" class="secondary">Deny</button>
    </form>
  </section>`;
  return sendPage(reply, page('Authorize application', body, { signedIn }));
}

/** urn:ietf:wg:oauth:2.0:oob: the code (or the error) is shown for the user to copy into the app. */
export function sendOobPage(
  reply: FastifyReply,
  outcome: { code: string } | { error: OAuthError },
  signedIn?: SignedIn,
): FastifyReply {
  const body =
    'code' in outcome
      ? html`<section>
          <p>Copy this authorization code into the application. It is valid for 10 minutes and works once.</p>
          <code class="secret" id="authorization-code">${outcome.code}</code>
        </section>`
      : html`<section class="error">
          <p id="authorization-error"><strong>${outcome.error.code}</strong>: ${outcome.error.description}</p>
        </section>`;
  return sendPage(
    reply,
    page('code' in outcome ? 'Authorization code' : 'Authorization not granted', body, { signedIn }),
  );
}
