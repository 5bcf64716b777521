import { create } from 'zustand';
import type { SessionState, WorkspaceSnapshot } from '../../../shared/bridge/contract';
import { bridge } from '../bridge';

interface AppState {
  session?: SessionState;
  snapshot?: WorkspaceSnapshot;
  status: 'idle' | 'loading' | 'ready' | 'error';
  error?: string;
  load(): Promise<void>;
}

export const useAppStore = create<AppState>((set) => ({
  status: 'idle',
  async load() {
    set({ status: 'loading' });
    try {
      const session = await bridge.methods['session.get']({});
      const snapshot =
        session.activeEntityId === null ? undefined : await bridge.methods['workspace.snapshot']({});
      set({ session, snapshot, status: 'ready' });
    } catch (error) {
      set({ status: 'error', error: error instanceof Error ? error.message : String(error) });
    }
  },
}));
