/**
 * The Responses tab's state: the entity's portfolio responses, the one open, offline edits, the
 * last sync's report and evidence uploads. Main holds the truth (its store is offline-first); this
 * keeps what the view shows and serialises the calls that change it.
 */
import { create } from 'zustand';
import type {
  IndicatorValue,
  ResponseDetail,
  ResponseDocumentView,
  ResponseListItem,
  ResponseValueView,
  ResponsesSyncReport,
  UploadProgress,
} from '../../../shared/responses/types';
import { bridge } from '../bridge';
import { notify } from '../store/ui';

/** Where a document goes: an indicator's variable, or null for the response as a whole. */
export type AttachTarget = string | null;

export interface UploadState {
  responseId: number;
  target: AttachTarget;
  phase: 'picking' | 'uploading' | 'done' | 'failed';
  filename: string | null;
  sent: number;
  total: number;
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
  upload: UploadState | null;
  uploadError: string | null;
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
  upload: null,
  uploadError: null,
};

export const useResponses = create<ResponsesState>(() => ({ ...initial }));

export const errorMessage = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

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
    uploadError: null,
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

/** Main's file dialog, then the upload; the renderer never sees the file's path. */
export async function attachDocument(responseId: number, target: AttachTarget): Promise<void> {
  const busy = useResponses.getState().upload;
  if (busy && (busy.phase === 'picking' || busy.phase === 'uploading')) return;
  const gen = generation;
  useResponses.setState({
    uploadError: null,
    upload: { responseId, target, phase: 'picking', filename: null, sent: 0, total: 0 },
  });
  try {
    const picked = await bridge.methods['files.pick']({ purpose: 'evidence' });
    if (!current(gen)) return;
    if (!picked) {
      useResponses.setState({ upload: null });
      return;
    }
    useResponses.setState({
      upload: {
        responseId,
        target,
        phase: 'uploading',
        filename: picked.name,
        sent: 0,
        total: picked.size ?? 0,
      },
    });
    const doc = await bridge.methods['responses.attachDocument']({
      responseId,
      fileId: picked.fileId,
      ...(target === null ? {} : { variable: target }),
    });
    if (!current(gen)) return;
    addDocument(responseId, doc);
    useResponses.setState((s) => ({
      upload: s.upload ? { ...s.upload, phase: 'done', sent: s.upload.total, filename: doc.filename } : null,
    }));
    await refreshList(gen);
  } catch (error) {
    if (!current(gen)) return;
    useResponses.setState((s) => ({
      uploadError: errorMessage(error),
      upload: s.upload ? { ...s.upload, phase: 'failed' } : null,
    }));
  }
}

function addDocument(responseId: number, doc: ResponseDocumentView): void {
  useResponses.setState((s) => {
    if (!s.detail || s.detail.response.id !== responseId) return {};
    const documents = [...s.detail.documents.filter((d) => d.id !== doc.id), doc];
    return { detail: { ...s.detail, documents } };
  });
}

/** Progress events from main; only the upload this view started moves its bar. */
export function connectUploadProgress(): () => void {
  return bridge.on('responses.uploadProgress', (p: UploadProgress) => {
    useResponses.setState((s) => {
      const u = s.upload;
      if (!u || u.responseId !== p.responseId || u.phase !== 'uploading') return {};
      return { upload: { ...u, filename: p.filename, sent: p.sent, total: p.total } };
    });
  });
}
