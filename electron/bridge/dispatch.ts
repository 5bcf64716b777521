import { bridgeMethods, isBridgeMethodName, type BridgeMethodName } from '../../shared/bridge/contract';
import type { BridgeEnvelope } from '../../shared/bridge/envelope';
import { badRequest, notFound } from '../../shared/errors';
import { toBridgeErrorBody } from './errors';
import type { BridgeHandlers } from './handlers';

export type Dispatch = (name: unknown, rawArgs: unknown) => Promise<unknown>;

/**
 * The single entry every host funnels renderer calls through: it rejects names outside the contract
 * and parses the arguments with the contract's schema, so handlers only ever see typed values.
 */
export function createDispatcher(handlers: BridgeHandlers): Dispatch {
  return async (name, rawArgs) => {
    if (!isBridgeMethodName(name)) {
      throw notFound(`Unknown bridge method: ${String(name)}`);
    }
    return invoke(handlers, name, rawArgs);
  };
}

async function invoke<N extends BridgeMethodName>(
  handlers: BridgeHandlers,
  name: N,
  rawArgs: unknown,
): Promise<unknown> {
  const parsed = bridgeMethods[name].args.safeParse(rawArgs ?? {});
  if (!parsed.success) {
    const detail = parsed.error.issues
      .map((issue) => `${issue.path.join('.') || '(arguments)'}: ${issue.message}`)
      .join('; ');
    throw badRequest(`Invalid arguments for ${name}: ${detail}`);
  }
  // The mapped type cannot be narrowed per key by TypeScript; the schema above guarantees the shape.
  const handler = handlers[name] as (args: unknown) => unknown;
  return handler(parsed.data);
}

/** Runs one call and always answers with an envelope, never a rejection. */
export async function dispatchToEnvelope(
  dispatch: Dispatch,
  name: unknown,
  rawArgs: unknown,
): Promise<BridgeEnvelope> {
  try {
    return { ok: true, result: await dispatch(name, rawArgs) };
  } catch (error) {
    return { ok: false, error: toBridgeErrorBody(error) };
  }
}
