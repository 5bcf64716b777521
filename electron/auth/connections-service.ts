/**
 * The connections the app knows (the built-in local sandbox and real services the user added): add,
 * switch, remove. Its slice of the bridge: `connections.*`. Switching re-enters the session.
 */
import type { BridgeHandlers } from '../bridge/handlers';
import { badRequest, notFound } from '../../shared/errors';
import { customConnectionInputSchema, localSandboxIds, type ConnectionRegistry } from './connections';
import type { SessionService } from './session-service';

export type ConnectionsHandlers = Pick<
  BridgeHandlers,
  'connections.add' | 'connections.select' | 'connections.remove'
>;

export function connectionsService(deps: {
  registry: ConnectionRegistry;
  session: SessionService;
  /** Told when the working entity changes with the connection. */
  onSwitched: () => void;
}): { handlers: ConnectionsHandlers } {
  const { registry, session } = deps;
  return {
    handlers: {
      'connections.add': async (input) => {
        const parsed = customConnectionInputSchema.safeParse(input);
        if (!parsed.success) {
          throw badRequest(
            `Check the connection: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
          );
        }
        const added = await registry.addCustom(parsed.data);
        await registry.setActive(added.id);
        await session.activate(added);
        return session.state();
      },
      'connections.select': async ({ connectionId }) => {
        const target = registry.get(connectionId);
        if (!target) throw notFound(`No connection ${connectionId}`);
        await registry.setActive(target.id);
        await session.activate(target);
        deps.onSwitched();
        return session.state();
      },
      'connections.remove': async ({ connectionId }) => {
        if (localSandboxIds.includes(connectionId))
          throw badRequest('The local sandboxes are built in and stay.');
        await session.forget(connectionId);
        await registry.removeCustom(connectionId);
        if (connectionId === session.activeConnection.id) await session.activate(registry.active());
        return session.state();
      },
    },
  };
}
