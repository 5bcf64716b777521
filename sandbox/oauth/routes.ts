import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { SandboxContext } from '../context';
import { presentedToken } from '../auth/guard';
import { checkCsrf, currentSession, redirectToSignIn, type SignedIn } from '../portal/session';
import { checkAuthorizationRequest, redirectWith, type AuthorizationCheck } from './authorization-request';
import { asOAuthError, OAuthError } from './errors';
import { sendConsentPage, sendOAuthErrorPage, sendOobPage } from './pages';
import { oobUri } from './redirect-uri';
import { exchangeAuthorizationCode } from './token-exchange';

const formParams = z.record(z.string(), z.union([z.string(), z.array(z.string())]));
const decisionForm = z
  .object({ decision: z.enum(['approve', 'deny']), csrf_token: z.string().optional() })
  .loose();

function sendCheckError(
  reply: FastifyReply,
  check: Exclude<AuthorizationCheck, { kind: 'ok' }>,
  signedIn: SignedIn | undefined,
): FastifyReply {
  if (check.kind === 'page') return sendOAuthErrorPage(reply, check.error, signedIn);
  if (check.redirectUri === oobUri) return sendOobPage(reply, { error: check.error }, signedIn);
  return reply.redirect(
    redirectWith(check.redirectUri, {
      error: check.error.code,
      error_description: check.error.description,
      state: check.state,
    }),
    302,
  );
}

function sendJsonError(reply: FastifyReply, error: OAuthError): FastifyReply {
  if (error.code === 'invalid_client') reply.header('www-authenticate', 'Basic realm="sandbox"');
  return reply.code(error.status).header('cache-control', 'no-store').send(error.body());
}

/**
 * The provider's endpoints (the spec's OAuth 2.0 section): step 1 at /oauth/authorize (a page),
 * step 2 at /oauth/token, and /oauth/token/info. Same origin as the portal, so the portal's
 * sign-in session is the provider's.
 */
export function registerOAuthRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { oauth } = ctx.store;

  void app.register(async (scope) => {
    scope.setErrorHandler((error, request, reply) => {
      const status = (error as { statusCode?: unknown }).statusCode;
      const oauthError =
        error instanceof OAuthError
          ? error
          : typeof status === 'number' && status < 500
            ? new OAuthError('invalid_request', (error as Error).message, status)
            : asOAuthError(error);
      if (oauthError.status >= 500) request.log.error({ err: error }, 'oauth request failed');
      if (request.url.startsWith('/oauth/authorize'))
        return sendOAuthErrorPage(reply, oauthError, currentSession(ctx, request));
      return sendJsonError(reply, oauthError);
    });

    scope.get('/oauth/authorize', async (request, reply) => {
      const signedIn = currentSession(ctx, request);
      const check = checkAuthorizationRequest(oauth, request.query);
      if (check.kind !== 'ok') return sendCheckError(reply, check, signedIn);
      // The spec: asked to sign in if not signed in; then back here with the same request.
      if (!signedIn) return redirectToSignIn(reply, request.url);
      return sendConsentPage(reply, check.request, signedIn);
    });

    scope.post('/oauth/authorize', async (request: FastifyRequest, reply) => {
      const form = decisionForm.safeParse(request.body ?? {});
      if (!form.success) throw new OAuthError('invalid_request', 'The consent form is incomplete.');
      const params = formParams.parse(request.body);
      delete params['decision'];
      delete params['csrf_token'];
      const signedIn = currentSession(ctx, request);
      if (!signedIn) {
        // The session ended while the consent page was open: sign in and see the page again.
        return redirectToSignIn(
          reply,
          `/oauth/authorize?${new URLSearchParams(params as Record<string, string>).toString()}`,
        );
      }
      checkCsrf(signedIn, form.data.csrf_token);
      const check = checkAuthorizationRequest(oauth, params);
      if (check.kind !== 'ok') return sendCheckError(reply, check, signedIn);
      const req = check.request;
      if (form.data.decision === 'deny') {
        return sendCheckError(
          reply,
          {
            kind: 'redirect',
            error: new OAuthError('access_denied', 'The resource owner denied the request.'),
            redirectUri: req.redirectUri,
            state: req.state,
          },
          signedIn,
        );
      }
      const code = oauth.issueCode({
        applicationId: req.application.id,
        userId: signedIn.user.id,
        redirectUri: req.redirectUri,
        scopes: req.scopes,
        codeChallenge: req.codeChallenge ?? null,
      });
      ctx.log.info({ application: req.application.uid, user: signedIn.user.id }, 'oauth code issued');
      if (req.redirectUri === oobUri) return sendOobPage(reply, { code }, signedIn);
      return reply.redirect(redirectWith(req.redirectUri, { code, state: req.state }), 303);
    });

    scope.post('/oauth/token', async (request, reply) => {
      const token = exchangeAuthorizationCode(ctx, request);
      return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(token);
    });

    const tokenInfo = async (request: FastifyRequest, reply: FastifyReply) => {
      const value = presentedToken(request);
      if (value === undefined) throw new OAuthError('invalid_request', 'access_token is missing.');
      const details = oauth.tokenDetails(value);
      if (details === 'unknown' || details === 'expired') {
        const why = details === 'expired' ? 'The access token expired.' : 'The access token is invalid.';
        return sendJsonError(reply, new OAuthError('unknown', why, 401));
      }
      return reply.header('cache-control', 'no-store').send({
        resource_owner_id: details.userId,
        scope: details.scopes,
        expires_in: Math.max(0, Math.floor((details.expiresAtMs - ctx.now()) / 1000)),
        application: { uid: details.applicationUid },
        created_at: details.createdAtS,
      });
    };
    scope.post('/oauth/token/info', tokenInfo);
    scope.get('/oauth/token/info', tokenInfo);
  });
}
