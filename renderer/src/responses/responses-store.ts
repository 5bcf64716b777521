/**
 * The Responses tab's state: the entity's portfolio responses, the one open, offline edits, the
 * last sync's report and evidence links being added. Main holds the truth (its store is offline-first); this
 * keeps what the view shows and serialises the calls that change it.
 */
import { create } from 'zustand';
import type {
  EvidenceInput,
  EvidenceItemView,
  IndicatorValue,
  ResponseDetail,
  ResponseListItem,
  ResponseValueView,
  ResponsesSyncReport,
} from '../../../shared/responses/types';
import { bridge } from '../bridge';
import { notify } from '../store/ui';
import { joinHistory, refreshHistory } from '../editing/commands';
import { errorMessage } from '../../../shared/errors';

/** Evidence being added to one indicator: sent at once (the service takes links, not files). */
export interface EvidenceState {
  responseId: number;
  variable: string;
  phase: 'sending' | 'done' | 'failed';
  /** What the service answered (item number, report link, variables), once done. */
  item?: EvidenceItemView | undefined;
  error?: string | undefined;
}

export interface ResponsesState {
  list: ResponseListItem[] | null;
  listLoading: boolean;
  listError: string | null;
  selectedId: number | null;
  detail: ResponseDetail | null;
  detailLoading: boolean;
  detailError: string | null;
  /** Why main refused the last edit of a value, per variable. */
  editErrors: Record<string, string>;
  syncing: boolean;
  report: ResponsesSyncReport | null;
  syncError: string | null;
  evidence: EvidenceState | null;
}

const initial: ResponsesState = {
  list: null,
  listLoading: false,
  listError: null,
  selectedId: null,
  detail: null,
  detailLoading: false,
  detailError: null,
  editErrors: {},
  syncing: false,
  report: null,
  syncError: null,
  evidence: null,
};

export const useResponses = create<ResponsesState>(() => ({ ...initial }));

/**
 * Bumped on every reset (the view is rebuilt per entity), so an answer that arrives for the
 * previous entity is dropped instead of shown under the new one.
 */
let generation = 0;
/** Edits reach main in the order they were made, and a sync starts only after the last one. */
let chain: Promise<unknown> = Promise.resolve();
/** Text fields hold a draft while typing; a sync asks them to hand it over first. */
const draftFlushers = new Set<() => void>();

function enqueue<T>(fn: () => Promise<T>): Promise<T> {
  const run = chain.then(fn, fn);
  chain = run.catch(() => undefined);
  return run;
}

function current(gen: number): boolean {
  return gen === generation;
}

export function registerDraft(flush: () => void): () => void {
  draftFlushers.add(flush);
  return () => void draftFlushers.delete(flush);
}

export function resetResponses(): void {
  generation++;
  useResponses.setState({ ...initial });
}

export async function loadList(): Promise<void> {
  const gen = generation;
  useResponses.setState({ listLoading: true, listError: null });
  try {
    const list = await bridge.methods['responses.list']({});
    if (!current(gen)) return;
    useResponses.setState({ list });
  } catch (error) {
    if (current(gen)) useResponses.setState({ listError: errorMessage(error) });
  } finally {
    if (current(gen)) useResponses.setState({ listLoading: false });
  }
}

/** The list's counts (modified, conflicts, documents) after a change, without a loading state. */
async function refreshList(gen: number): Promise<void> {
  try {
    const list = await bridge.methods['responses.list']({});
    if (current(gen)) useResponses.setState({ list });
  } catch {
    // The counts stay as they were; the change itself was reported where it happened.
  }
}

export async function openResponse(responseId: number): Promise<void> {
  const gen = generation;
  useResponses.setState({
    selectedId: responseId,
    detailLoading: true,
    detailError: null,
    editErrors: {},
    evidence: null,
  });
  try {
    const detail = await bridge.methods['responses.open']({ responseId });
    if (!current(gen) || useResponses.getState().selectedId !== responseId) return;
    useResponses.setState({ detail });
  } catch (error) {
    if (current(gen)) useResponses.setState({ detail: null, detailError: errorMessage(error) });
  } finally {
    if (current(gen)) useResponses.setState({ detailLoading: false });
  }
}

function applyValue(responseId: number, view: ResponseValueView): void {
  useResponses.setState((s) => {
    if (!s.detail || s.detail.response.id !== responseId) return {};
    const known = s.detail.values.some((v) => v.variable === view.variable);
    const values = known
      ? s.detail.values.map((v) => (v.variable === view.variable ? view : v))
      : [...s.detail.values, view];
    const editErrors = { ...s.editErrors };
    delete editErrors[view.variable];
    return { detail: { ...s.detail, values }, editErrors };
  });
}

/** One change of an answer through main; a refusal is shown next to the field. */
function changeValue(
  responseId: number,
  variable: string,
  call: () => Promise<ResponseValueView>,
): Promise<void> {
  const gen = generation;
  return enqueue(async () => {
    try {
      const view = await call();
      if (!current(gen)) return;
      applyValue(responseId, view);
      // The change is main's newest undo step ("answer to …"): the toolbar's Undo says so.
      await refreshHistory();
      await refreshList(gen);
    } catch (error) {
      if (!current(gen)) return;
      useResponses.setState((s) => ({ editErrors: { ...s.editErrors, [variable]: errorMessage(error) } }));
    }
  });
}

export function setValue(responseId: number, variable: string, value: IndicatorValue): Promise<void> {
  return changeValue(responseId, variable, () =>
    bridge.methods['responses.setValue']({ responseId, variable, value }),
  );
}

export function revertValue(responseId: number, variable: string): Promise<void> {
  return changeValue(responseId, variable, () =>
    bridge.methods['responses.revertValue']({ responseId, variable }),
  );
}

export function resolveConflict(
  responseId: number,
  variable: string,
  choice: 'mine' | 'theirs',
): Promise<void> {
  return changeValue(responseId, variable, () =>
    bridge.methods['responses.resolveConflict']({ responseId, variable, choice }),
  );
}

/** Sends every pending answer of every response, after the edits still on their way to main. */
export async function syncResponses(): Promise<void> {
  if (useResponses.getState().syncing) return;
  const gen = generation;
  useResponses.setState({ syncing: true, syncError: null });
  try {
    for (const flush of draftFlushers) flush();
    await chain;
    const report = await bridge.methods['responses.sync']({});
    if (!current(gen)) return;
    useResponses.setState({ report });
    // The summary beside the button tells the rest; a stop (offline, signed out) also reaches other tabs.
    if (report.stopped) notify('error', `Responses sync stopped: ${report.stopped.message}`);
  } catch (error) {
    if (current(gen)) useResponses.setState({ syncError: errorMessage(error) });
  } finally {
    if (current(gen)) {
      useResponses.setState({ syncing: false });
      await refreshList(gen);
      const selected = useResponses.getState().selectedId;
      if (selected !== null) await reloadDetail(gen, selected);
    }
  }
}

async function reloadDetail(gen: number, responseId: number): Promise<void> {
  try {
    const detail = await bridge.methods['responses.open']({ responseId });
    if (current(gen) && useResponses.getState().selectedId === responseId)
      useResponses.setState({ detail, detailError: null });
  } catch (error) {
    if (current(gen)) useResponses.setState({ detailError: errorMessage(error) });
  }
}

/** Adds a link as evidence for an indicator through main, which sends it to the service at once. */
export async function addEvidence(
  responseId: number,
  variable: string,
  input: EvidenceInput,
): Promise<boolean> {
  const busy = useResponses.getState().evidence;
  if (busy?.phase === 'sending') return false;
  const gen = generation;
  useResponses.setState({ evidence: { responseId, variable, phase: 'sending' } });
  try {
    const item = await bridge.methods['responses.addEvidence']({ responseId, variable, ...input });
    if (!current(gen)) return false;
    useResponses.setState((s) => ({
      evidence: { responseId, variable, phase: 'done', item },
      detail:
        s.detail && s.detail.response.id === responseId
          ? { ...s.detail, evidence: mergeItem(s.detail.evidence, item) }
          : s.detail,
    }));
    await refreshList(gen);
    return true;
  } catch (error) {
    if (current(gen))
      useResponses.setState({
        evidence: { responseId, variable, phase: 'failed', error: errorMessage(error) },
      });
    return false;
  }
}

function mergeItem(items: EvidenceItemView[], item: EvidenceItemView): EvidenceItemView[] {
  const same = (e: EvidenceItemView) => e.answerName === item.answerName && e.itemNumber === item.itemNumber;
  return [...items.filter((e) => !same(e)), item];
}

// Answers are steps of the workspace's history: an undo waits for the answers on their way, and
// an undone or redone answer is read again.
joinHistory({
  settled: () => {
    for (const flush of draftFlushers) flush();
    return chain;
  },
  changed: (outcome) => {
    if (outcome.responses.length === 0) return;
    const gen = generation;
    void enqueue(async () => {
      await refreshList(gen);
      const selected = useResponses.getState().selectedId;
      if (selected !== null && outcome.responses.includes(selected)) await reloadDetail(gen, selected);
    });
  },
});
