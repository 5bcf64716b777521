import { badRequest, forbidden, notFound } from '../../shared/errors';
import type { BridgeHandlers } from '../bridge/handlers';
import { ApiError } from '../service-client/errors';
import type { SubmissionApiClient } from '../service-client/service-client';
import { catalogIndicator } from '../../shared/responses/catalog';
import {
  isReadOnlyResponse,
  type EvidenceInput,
  type EvidenceItemView,
  type IndicatorValue,
  type ResponseDetail,
  type ResponseListItem,
  type ResponseValueView,
  type ResponsesSyncReport,
} from '../../shared/responses/types';
import { addEvidence, checkEvidenceInput } from './evidence';
import { ResponsesClient } from './responses-client';
import { ResponsesStore } from './responses-store';
import { pullResponses, syncResponses } from './responses-sync';

/** The workspace the responses belong to: one file per connection and entity. */
export interface ResponsesWorkspace {
  entityId: number;
  file: string;
}

export interface ResponsesServiceDeps {
  /** The open workspace, or undefined when none is (signed out, no entity). */
  workspace: () => ResponsesWorkspace | undefined;
  client: () => SubmissionApiClient;
  signedIn: () => boolean;
  /** Told of every failed call, so the session can say offline or ask for sign-in. */
  noteFailure: (error: unknown) => void;
}

/**
 * Portfolio responses of the open workspace: offline reads and edits in its store, sync and
 * evidence links through the client. The store follows the workspace: it is opened on first use
 * and reopened when the workspace (connection, entity) changes.
 */
export class ResponsesService {
  private opened: { file: string; store: ResponsesStore } | undefined;
  private syncing = false;

  constructor(private readonly deps: ResponsesServiceDeps) {}

  async list(): Promise<ResponseListItem[]> {
    const { store, workspace } = this.current();
    // A first look fills the list, as a first open of the asset workspace does.
    if (store.isEmpty() && this.deps.signedIn()) {
      try {
        await pullResponses({ store, client: this.deps.client(), entityId: workspace.entityId });
      } catch (error) {
        this.deps.noteFailure(error);
      }
    }
    return store.list();
  }

  open(responseId: number): ResponseDetail {
    const detail = this.current().store.detail(responseId);
    if (!detail) throw notFound(`No response ${responseId} in the workspace`);
    return detail;
  }

  setValue(responseId: number, variable: string, value: IndicatorValue): ResponseValueView {
    return this.current().store.setValue(responseId, variable, value);
  }

  resolveConflict(responseId: number, variable: string, choice: 'mine' | 'theirs'): ResponseValueView {
    return this.current().store.resolveConflict(responseId, variable, choice);
  }

  revertValue(responseId: number, variable: string): ResponseValueView {
    return this.current().store.revertValue(responseId, variable);
  }

  async sync(signal?: AbortSignal): Promise<ResponsesSyncReport> {
    const { store, workspace } = this.current();
    if (!this.deps.signedIn()) throw forbidden('Sign in before syncing.');
    if (this.syncing) throw badRequest('A sync of the responses is already running.');
    this.syncing = true;
    try {
      return await syncResponses({
        store,
        client: this.deps.client(),
        entityId: workspace.entityId,
        signal,
        onStop: this.deps.noteFailure,
      });
    } finally {
      this.syncing = false;
    }
  }

  /**
   * Adds evidence to an indicator, online: a file by the link where it is hosted (POST documents) or
   * a hyperlink (its values). The service takes no uploads, so a file on this computer is refused
   * with what to do first.
   */
  async addEvidence(
    input: EvidenceInput & { responseId: number; variable: string },
  ): Promise<EvidenceItemView> {
    const { store, workspace } = this.current();
    const response = store.summary(input.responseId);
    if (!response) throw notFound(`No response ${input.responseId} in the workspace`);
    if (isReadOnlyResponse(response))
      throw forbidden(
        `The ${response.survey_year} response is ${response.status}: a historical response is read-only`,
      );
    const def = catalogIndicator(input.variable);
    if (!def?.evidence) throw badRequest(`Indicator ${input.variable} takes no evidence`);
    const checked: EvidenceInput = checkEvidenceInput(input);
    if (!this.deps.signedIn()) throw forbidden('Sign in to add evidence.');
    const answerName = def.evidence;
    const highest = Math.max(
      0,
      ...store
        .evidence(input.responseId)
        .filter((e) => e.answerName === answerName)
        .map((e) => e.itemNumber ?? 0),
    );
    try {
      const item = await addEvidence(
        {
          client: new ResponsesClient(this.deps.client()),
          entityId: workspace.entityId,
          responseId: input.responseId,
          answerName,
        },
        checked,
        highest,
      );
      store.saveEvidence(input.responseId, item);
      return item;
    } catch (error) {
      if (error instanceof ApiError) this.deps.noteFailure(error);
      throw error;
    }
  }

  /** Closes the store; the next call opens the then-current workspace's. */
  release(): void {
    this.opened?.store.close();
    this.opened = undefined;
  }

  private current(): { store: ResponsesStore; workspace: ResponsesWorkspace } {
    const workspace = this.deps.workspace();
    if (!workspace) {
      this.release();
      throw badRequest(
        this.deps.signedIn() ? 'No reporting entity is selected.' : 'Sign in to choose a reporting entity.',
      );
    }
    if (this.opened?.file !== workspace.file) {
      this.release();
      this.opened = { file: workspace.file, store: ResponsesStore.open(workspace.file) };
    }
    return { store: this.opened.store, workspace };
  }

  /** The service's slice of the bridge. */
  readonly handlers: Pick<
    BridgeHandlers,
    | 'responses.list'
    | 'responses.open'
    | 'responses.setValue'
    | 'responses.resolveConflict'
    | 'responses.revertValue'
    | 'responses.sync'
    | 'responses.addEvidence'
  > = {
    'responses.list': () => this.list(),
    'responses.open': ({ responseId }) => this.open(responseId),
    'responses.setValue': ({ responseId, variable, value }) => this.setValue(responseId, variable, value),
    'responses.resolveConflict': ({ responseId, variable, choice }) =>
      this.resolveConflict(responseId, variable, choice),
    'responses.revertValue': ({ responseId, variable }) => this.revertValue(responseId, variable),
    'responses.sync': () => this.sync(),
    'responses.addEvidence': (args) => this.addEvidence(args),
  };
}
