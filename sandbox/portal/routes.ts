import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context';
import { registerSignInRoutes } from './sign-in';
import { registerEntityPages } from './entity-pages';
import { registerPartnerPages } from './partner-pages';
import { registerViewPages } from './view-pages';
import { registerAuthorizationsPage } from './authorizations-page';
import { html } from './html';
import { page, sendPage } from './layout';
import { ApiError } from '../http/errors';
import { currentSession } from './session';

/** The sandbox portal: server-rendered pages under /portal, on the API's origin. */
export function registerPortalRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  void app.register(async (portal) => {
    // Portal failures (a stale form, a malformed id) are pages, not the API's JSON.
    portal.setErrorHandler((error, request, reply) => {
      const status =
        error instanceof ApiError
          ? error.statusCode
          : typeof (error as { statusCode?: unknown }).statusCode === 'number'
            ? (error as { statusCode: number }).statusCode
            : 500;
      if (status >= 500) request.log.error({ err: error }, 'portal request failed');
      const message = status >= 500 ? 'Something went wrong in the sandbox.' : (error as Error).message;
      const body = html`<p class="error" role="alert">${message}</p>
        <p><a href="/portal">Back to the portal</a></p>`;
      return sendPage(
        reply,
        page('Request failed', body, { signedIn: currentSession(ctx, request) }),
        status,
      );
    });
    registerSignInRoutes(portal, ctx);
    registerEntityPages(portal, ctx);
    registerPartnerPages(portal, ctx);
    registerViewPages(portal, ctx);
    registerAuthorizationsPage(portal, ctx);
  });
}
