import type { FastifyInstance } from 'fastify';
import { fromRealNamesRequest, serviceIdName, toWireAnswer } from '../../shared/sync/asset-id-name';

/** The asset routes, whose bodies and answers carry assets. */
const assetPath = /^\/api\/v1\/entities\/[^/]+\/assets(\/|\?|$)/;

/**
 * The sandbox's real-names mode (`npm run sandbox -- --real-names`): its asset routes speak as the
 * real service does, so the app can rehearse against either. The id is `gresb_asset_id` in every
 * answer and the only id a request is read by; `lat`/`lng` (removed in the docs' 2.07) and annual
 * `owned_entire_period` (2.08) are neither answered nor taken. The store and the routes keep our
 * spec's names: the translation is this edge alone (shared/sync/asset-id-name.ts).
 */
export function speakRealNames(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (!assetPath.test(request.url) || request.body === undefined) return;
    request.body = fromRealNamesRequest(request.body);
  });
  app.addHook('preSerialization', async (request, _reply, payload: unknown) =>
    assetPath.test(request.url) ? toWireAnswer(payload, serviceIdName) : payload,
  );
}
