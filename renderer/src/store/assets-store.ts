import { create } from 'zustand';
import type { SampleAssetRow } from '../../../shared/bridge/contract';
import { bridge } from '../bridge';

interface AssetsState {
  rows: SampleAssetRow[];
  status: 'idle' | 'loading' | 'ready' | 'error';
  error?: string;
  load(): Promise<void>;
}

export const useAssetsStore = create<AssetsState>((set) => ({
  rows: [],
  status: 'idle',
  async load() {
    set({ status: 'loading' });
    try {
      const rows = await bridge.methods['assets.listSample']({});
      set({ rows, status: 'ready' });
    } catch (error) {
      set({ status: 'error', error: error instanceof Error ? error.message : String(error) });
    }
  },
}));
