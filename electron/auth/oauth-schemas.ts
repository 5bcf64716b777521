/**
 * The OAuth token and token-info bodies, parsed in main only: kept out of shared/ so no
 * token-handling code can end up in the renderer's bundle (tests/bridge/no-token.test.ts).
 */
import { z } from 'zod';
import {
  parseWith,
  type OAuthTokenResponse,
  type ParseResult,
  type TokenInfoResponse,
} from '../../shared/domain';

export const oauthTokenResponseSchema: z.ZodType<OAuthTokenResponse> = z.object({
  access_token: z.string().min(1),
  token_type: z.string(),
  expires_in: z.number().int(),
  scope: z.string(),
  created_at: z.number().int().optional(),
  refresh_token: z.string().optional(),
});

export const tokenInfoResponseSchema: z.ZodType<TokenInfoResponse> = z.object({
  resource_owner_id: z.number().int(),
  scope: z.array(z.string()),
  expires_in: z.number().int(),
  application: z.object({ uid: z.string() }),
  created_at: z.number().int(),
});

export const parseOAuthTokenResponse = (json: unknown): ParseResult<OAuthTokenResponse> =>
  parseWith(oauthTokenResponseSchema, json);
export const parseTokenInfoResponse = (json: unknown): ParseResult<TokenInfoResponse> =>
  parseWith(tokenInfoResponseSchema, json);
